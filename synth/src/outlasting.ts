/**
 * Scripts the source's frame load did not wait for: a script a computation requested whose recorded
 * download ended after its frame's window load fired (www.sahibinden.com: `sca.js`, 1,685–6,761 ms, in the
 * safeframe whose load fired at 1,928 ms; the page's at 1,940). The 2016 page appended it into an
 * about:blank iframe it had just made (raw log: `Frame` 1089 created 10 µs before the request, the
 * `Resource` in it), whose load had already fired; the 2016 graph puts it in the safeframe itself. The
 * synthesized page does the same: the script goes into a new about:blank iframe (`I` in program.ts),
 * which keeps the frame's program (its `__pcpDoc` and name), so no load waits for it. Pure.
 */
import type { ResourceNode } from '@pcp/graph-builder';
import type { GraphIndex } from './graph-index.ts';

/** A load this far inside the download (either end) is a clear overlap, not the record's jitter. */
const SLACK_MS = 20;

/** Whether `r`'s frame fired its window load while `r` was downloading. */
export function outlastsFrameLoad(ix: GraphIndex, r: ResourceNode): boolean {
  return ix.graph.nodes.some((n) => n.kind === 'event' && n.frame === r.frame && n.eventName === 'load' && n.eventTarget.toLowerCase() === 'window'
    && n.start > r.start + SLACK_MS && n.start < r.end - SLACK_MS);
}
