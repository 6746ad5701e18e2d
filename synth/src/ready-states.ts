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
import { perIndex } from './per-index.ts';

export type ReadyState = 'interactive' | 'complete';

const isDocumentReadyStateChange = (n: GraphNode): n is EventNode =>
  n.kind === 'event' && n.eventName === 'readystatechange' && n.eventTarget.toLowerCase() === 'document' && !n.part;

interface FrameStates {
  /** The frame's document readystatechange events, in time order. */
  dispatches: EventNode[];
  /** When the frame's document reached interactive (DOMContentLoaded) and complete (the window's load), ms, as the graph records them. */
  interactive?: number;
  complete?: number;
}

/** Frame id -> its readystatechanges and milestones, read in one pass over the graph. */
const framesStates = perIndex((ix): Map<string, FrameStates> => {
  const out = new Map<string, FrameStates>();
  const of = (frame: string): FrameStates => out.get(frame) ?? out.set(frame, { dispatches: [] }).get(frame)!;
  for (const n of ix.graph.nodes) {
    if (isDocumentReadyStateChange(n)) of(n.frame).dispatches.push(n);
    const dcl = (n.kind === 'event' && n.eventName === 'DOMContentLoaded' && n.eventTarget.toLowerCase() === 'document') || (n.kind === 'marker' && n.markerName === 'domContentLoaded');
    const load = (n.kind === 'event' && n.eventName === 'load' && n.eventTarget.toLowerCase() === 'window') || (n.kind === 'marker' && n.markerName === 'load');
    if (dcl) of(n.frame).interactive = Math.min(of(n.frame).interactive ?? Infinity, n.start);
    if (load) of(n.frame).complete = Math.min(of(n.frame).complete ?? Infinity, n.start);
  }
  for (const f of out.values()) f.dispatches.sort((a, b) => a.start - b.start);
  return out;
});

/**
 * The state `ev` (a document's readystatechange) was dispatched at: of two in its frame, the first
 * `interactive` and the second `complete`; a single one by which of the frame's DOMContentLoaded and
 * load it is nearer to; undefined when the graph does not tell (more than two, or neither milestone).
 */
export function readyStateOf(ix: GraphIndex, ev: EventNode): ReadyState | undefined {
  if (!isDocumentReadyStateChange(ev)) return undefined;
  const { dispatches: same, interactive, complete } = framesStates(ix).get(ev.frame) ?? { dispatches: [] };
  if (same.length === 2) return same[0] === ev ? 'interactive' : 'complete';
  if (same.length !== 1) return undefined;
  if (interactive === undefined && complete === undefined) return undefined;
  const gap = (t: number | undefined): number => (t === undefined ? Infinity : Math.abs(ev.start - t));
  return gap(complete) < gap(interactive) ? 'complete' : 'interactive';
}
