/** Web Worker: computes the layered DAG layout (d3-dag, see shared/layeredLayout.ts) off the main thread. */
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
    const buffers: Transferable[] = [layout.x.buffer, layout.y.buffer, layout.w.buffer, layout.h.buffer];
    if (layout.edgeBends) buffers.push(layout.edgeBends.offset.buffer, layout.edgeBends.points.buffer);
    scope.postMessage({ id: ev.data.id, layout, ms: performance.now() - started }, buffers);
  } catch (e) {
    scope.postMessage({ id: ev.data.id, error: (e as Error).message });
  }
};
