/**
 * Which of a document's two readystatechange dispatches a recorded one was. Chromium fires the
 * document's readystatechange twice, at `interactive` (right before DOMContentLoaded) and at
 * `complete` (right before the window's load), and a listener hears both; the graph holds one event
 * per dispatch whose handlers ran work, so the synthesized listener of each runs only at its own state.
 * Without it www.2ch.net's `complete` handler (3,763 ms), which makes a MessagePort message that inserts
 * two ad iframes, ran at `interactive` too: each ad frame loaded twice, every event of the copies
 * rebuilt-only (35 of the class `event:img.load` added edges). Pure.
 */
import type { EventNode, GraphNode } from '@pcp/graph-builder';
import type { GraphIndex } from './graph-index.ts';

export type ReadyState = 'interactive' | 'complete';

const isDocumentReadyStateChange = (n: GraphNode): n is EventNode =>
  n.kind === 'event' && n.eventName === 'readystatechange' && n.eventTarget.toLowerCase() === 'document' && !n.part;

/** When a frame's document reached interactive (DOMContentLoaded) and complete (the window's load), ms, as the graph records them. */
function milestones(ix: GraphIndex, frame: string): { interactive?: number; complete?: number } {
  let interactive: number | undefined;
  let complete: number | undefined;
  for (const n of ix.graph.nodes) {
    if (n.frame !== frame) continue;
    const dcl = (n.kind === 'event' && n.eventName === 'DOMContentLoaded' && n.eventTarget.toLowerCase() === 'document') || (n.kind === 'marker' && n.markerName === 'domContentLoaded');
    const load = (n.kind === 'event' && n.eventName === 'load' && n.eventTarget.toLowerCase() === 'window') || (n.kind === 'marker' && n.markerName === 'load');
    if (dcl) interactive = Math.min(interactive ?? Infinity, n.start);
    if (load) complete = Math.min(complete ?? Infinity, n.start);
  }
  return { interactive, complete };
}

/**
 * The state `ev` (a document's readystatechange) was dispatched at: of two in its frame, the first
 * `interactive` and the second `complete`; a single one by which of the frame's DOMContentLoaded and
 * load it is nearer to; undefined when the graph does not tell (more than two, or neither milestone).
 */
export function readyStateOf(ix: GraphIndex, ev: EventNode): ReadyState | undefined {
  if (!isDocumentReadyStateChange(ev)) return undefined;
  const same = ix.graph.nodes.filter((n): n is EventNode => isDocumentReadyStateChange(n) && n.frame === ev.frame).sort((a, b) => a.start - b.start);
  if (same.length === 2) return same[0] === ev ? 'interactive' : 'complete';
  if (same.length !== 1) return undefined;
  const { interactive, complete } = milestones(ix, ev.frame);
  if (interactive === undefined && complete === undefined) return undefined;
  const gap = (t: number | undefined): number => (t === undefined ? Infinity : Math.abs(ev.start - t));
  return gap(complete) < gap(interactive) ? 'complete' : 'interactive';
}
