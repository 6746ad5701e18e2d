/** Web Worker: computes the layered DAG layout off the main thread. */
import { layeredLayout } from '../shared/layeredLayout.ts';
import type { Layout, LayoutInput } from '../shared/layoutTypes.ts';

interface Request {
  id: number;
  input: LayoutInput;
  collapsed: number[];
}

const scope = self as unknown as { onmessage: ((ev: MessageEvent<Request>) => void) | null; postMessage(m: unknown, transfer?: Transferable[]): void };
scope.onmessage = (ev) => {
  const started = performance.now();
  try {
    const layout: Layout = layeredLayout(ev.data.input, new Set(ev.data.collapsed));
    scope.postMessage({ id: ev.data.id, layout, ms: performance.now() - started }, [layout.x.buffer, layout.y.buffer, layout.w.buffer, layout.h.buffer]);
  } catch (e) {
    scope.postMessage({ id: ev.data.id, error: (e as Error).message });
  }
};
