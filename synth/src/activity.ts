/**
 * How long a synthesized site stays active: its source graph's last activity (the end of its last
 * download or timer, ms after navigation start), and the instant before which a profile of the site
 * may not end on quiet (`pcp profile --replay`): carousels and timer chains that requested things
 * seconds after load must get the chance to do so again. Events are not counted: a legacy capture's
 * last ones are the 2016 browser closing its window (blurs, mouseouts, errors at 60 s), which no
 * synthesized page causes. Pure.
 */
import type { Graph } from '@pcp/graph-builder';

/** The end of the graph's last http(s) download or timer (ms on the graph's clock); 0 for none. */
export function lastActivityMs(graph: Graph): number {
  let last = 0;
  for (const n of graph.nodes) {
    if ((n.kind === 'resource' && /^https?:/i.test(n.url)) || n.kind === 'timer') last = Math.max(last, n.end);
  }
  return Math.round(last);
}

/**
 * The replay's quiet floor: the last activity plus a margin for a replay that runs late (a loaded
 * host, timer chains that drift), 2 s or a tenth of the time, whichever is more.
 */
export function quietFloorMs(lastActivity: number): number {
  return Math.round(lastActivity + Math.max(2000, lastActivity * 0.1));
}
