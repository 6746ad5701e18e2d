/**
 * The hook tests and the benchmark read and drive from outside (`window.__pcpViewer`). It exists only
 * in test builds: `PCP_TEST_HOOK` is a build-time constant (see src/server/build.ts), false in the
 * bundle `pcp view` serves, so the minifier removes every `if (PCP_TEST_HOOK)` branch from it.
 */
export interface ViewerHook {
  graphId: string;
  ready: boolean;
  loadMs: number;
  firstRenderMs: number;
  layoutKind: () => string;
  renderedNodes: () => number;
  criticalPath: () => string[];
  screenPos: (id: string) => [number, number] | null;
  select: (id: string) => void;
  edgeScreenPos: (k: number) => [number, number] | null;
  panBy: (dx: number, dy: number) => void;
  framesDrawn: () => number;
  lastDrawMs: () => number;
  setLayout: (kind: 'time' | 'layered') => Promise<void>;
}

declare global {
  /** Defined by esbuild: true only in test builds. */
  const PCP_TEST_HOOK: boolean;
  interface Window {
    __pcpViewer?: ViewerHook;
  }
}
