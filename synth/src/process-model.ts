/**
 * Which process model a synthesized site is replayed in. The legacy corpus' browser (Chromium ~52, 2016)
 * ran cross-site iframes in the page's own renderer, on its main thread; site isolation (each cross-site
 * frame in a renderer of its own) came in 2018. Replayed with it, a frame's window.postMessage has no
 * trace link to its parent's handler and an ad frame's scripts run beside the page's instead of between
 * them (synth/README.md, "Session 19: the 2016 process model").
 */
import type { SynthMeta } from './bundle.ts';

const LEGACY_KINDS: ReadonlySet<string> = new Set(['legacy-log', 'legacy-graph']);

/** Whether the site's source graph was recorded by the 2016 browser (no site isolation). Pure. */
export function legacyProcessModel(meta: Pick<SynthMeta, 'sourceKind'>): boolean {
  return meta.sourceKind !== undefined && LEGACY_KINDS.has(meta.sourceKind);
}
