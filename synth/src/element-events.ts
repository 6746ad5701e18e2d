/**
 * Events that the source page got from the browser's rendering or media steps, or from a script
 * dispatching one of its own, and how the synthesized page makes Chromium fire them (session 10):
 * - a synchronous dispatch: the event began as a computation's part ended (legacy graphs draw rule 25
 *   from that part), which the browser never does for these (it fires scroll, resize, transitions and
 *   media events from its own tasks): the computation called `dispatchEvent` (livejournal.com's
 *   `ljsale-*`, reddit.com's `request.adzerk` on the window, espn.co.uk's `resize`);
 * - an event the browser fires after a page's request (`scroll` after a scroll, `transitionend` after
 *   a style change, `animationiteration` of a running animation, `play` after `play()`): caused for
 *   real, on a new element holding the handler, by the computation the source hangs it off (at the
 *   end of its part), else by a timer the frame's first script sets for the recorded time;
 * - a custom event no recorded computation dispatched (aliexpress.com's `fspointmove`, hung off the
 *   element's tag): only a script dispatches a custom event, so a timer for the recorded time does;
 * - mutation events (`DOMNodeInserted`, ...): Chromium no longer fires them (removed in Chrome 127), and
 *   dispatching one by script would fake the browser: a warning, unreproducible.
 * Pure.
 */
import type { EventNode } from '@pcp/graph-builder';
import { jsString } from './escape.ts';
import { BROWSER_ONLY, callerOf, isComputation, SYNC_MS, type GraphIndex } from './graph-index.ts';

/** How the page causes the event: `dispatch` (a script's `dispatchEvent`), or the browser step it asks for. */
export type CauseKind = 'dispatch' | 'scroll' | 'transition' | 'animation' | 'play';

export interface EventCause {
  event: EventNode;
  kind: CauseKind;
  /** The computation part that causes it, at its end. */
  by: string;
  /** ms after that part's end (a timer when > 0; 0: at once). */
  delayMs: number;
  /** Where the handler listens: a new element, or the window or document the source names. */
  target: 'element' | 'window' | 'document';
  /** Whether `by` is the event's parent in the graph (caused where the part's children are), else a timer of the frame's first script. */
  viaParent: boolean;
}

/** Events the browser fires from its rendering or media steps after something the page did, by name. */
const BROWSER_STEP: Record<string, CauseKind> = {
  scroll: 'scroll',
  transitionend: 'transition', webkitTransitionEnd: 'transition',
  animationiteration: 'animation', webkitAnimationIteration: 'animation',
  play: 'play',
};

/** DOM mutation events: removed from Chromium (127), never fired. */
export const MUTATION_EVENTS = new Set(['DOMNodeInserted', 'DOMNodeRemoved', 'DOMSubtreeModified', 'DOMAttrModified', 'DOMCharacterDataModified', 'DOMNodeInsertedIntoDocument', 'DOMNodeRemovedFromDocument']);

/**
 * How long the page's animation's first iteration lasts (program.ts's `V`): Chromium fires
 * animationiteration only at a frame that finds the animation still running in a later iteration, so an
 * iteration must outlast a frame or two (4 ms ones ended unseen); the timer asking for it is due that
 * much earlier.
 */
const ANIMATION_MS = 100;


/**
 * How the page causes `ev` (the first part of an event with work that no other mechanism of the
 * synthesizer installs: not a window/document completion handler, not an element's load or error, not
 * a message or focus event), or why it cannot: a string.
 */
export function causeOf(ix: GraphIndex, ev: EventNode, firstScriptOfFrame: (ev: EventNode) => string | undefined): EventCause | string {
  const t = ev.eventTarget.toLowerCase();
  const target = t === 'window' || t === 'document' ? t : 'element';
  if (MUTATION_EVENTS.has(ev.eventName)) return `a mutation event, which Chromium no longer fires (removed in Chrome 127): unreproducible`;
  const from = (ix.parents.get(ev.id) ?? []).filter((e) => !ix.isPart(e)).map((e) => ix.byId.get(e.from)!);
  const comp = from.find((p) => isComputation(p) && p.frame === ev.frame);
  const sync = comp !== undefined && ev.start - comp.end <= SYNC_MS;
  const step = BROWSER_STEP[ev.eventName];
  if (target !== 'element') {
    // The browser fires its own window and document events; a name of the page's own, begun as a computation ended, was that computation's dispatch.
    if (!sync || BROWSER_ONLY.has(ev.eventName) || step !== undefined) return 'not a dispatch by a computation';
    return { event: ev, kind: 'dispatch', by: comp.id, delayMs: 0, target, viaParent: true };
  }
  // User input and the focus moves of the legacy capture's end (the blurs of its last second): only the browser or the user fires them.
  if (BROWSER_ONLY.has(ev.eventName)) return 'only the browser or the user fires it';
  if (sync && !step) return { event: ev, kind: 'dispatch', by: comp.id, delayMs: 0, target, viaParent: true };
  // The computation the source hangs it off asks for it at its end; else a timer of the frame's first script, due at the recorded time.
  if (comp) return { event: ev, kind: step ?? 'dispatch', by: comp.id, delayMs: step ? 0 : round(ev.start - comp.end), target, viaParent: true };
  const first = firstScriptOfFrame(ev);
  if (!first) return 'no script of its frame runs before it to cause it';
  const s = ix.byId.get(first)!;
  return { event: ev, kind: step ?? 'dispatch', by: first, delayMs: round(ev.start - s.end - (step === 'animation' ? ANIMATION_MS : 0)), target, viaParent: false };
}

const round = (x: number): number => Math.max(0, Math.round(x));

/** Whether `ev` is an element event, or a window/document event of the page's own, that `causeOf` deals with. */
export function isCausable(ix: GraphIndex, ev: EventNode): boolean {
  const t = ev.eventTarget.toLowerCase();
  if (t.startsWith('xmlhttprequest') || t === 'messageport' || callerOf(ix, ev)) return false;
  if (t === 'window' || t === 'document') return !BROWSER_ONLY.has(ev.eventName) && BROWSER_STEP[ev.eventName] === undefined;
  return ev.eventName !== 'load' && ev.eventName !== 'error';
}

/** The helper call that causes `c` with `handler` (a function expression) as its listener (program.ts's `V`). */
export function causeCallJs(c: EventCause, handler: string): string {
  const call = `V(${jsString(c.kind)},${jsString(c.event.eventName)},${handler}${c.target === 'element' ? '' : `,${c.target}`})`;
  return c.delayMs > 0 ? `setTimeout(function(){${call}},${c.delayMs});` : `${call};`;
}
