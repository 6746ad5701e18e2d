/**
 * Which computations become graph nodes (thesis §3.5.1.1). Script and CSS evaluations always do.
 * Timers and events only when they matter to the load: timer chains are kept only when they eventually
 * download a resource (interval timers animating a page would otherwise flood the graph), and events
 * only when they are load-relevant by kind (Appendix A: load, error, DOMContentLoaded,
 * readystatechange) or eventually download a resource, and focus changes a kept computation made.
 * User-interaction and unload events never.
 */
import type { Activities, ComputationActivity } from '../model/types.ts';

const LOAD_EVENTS = new Set(['load', 'error', 'DOMContentLoaded', 'readystatechange']);
const NEVER = new Set(['beforeunload', 'unload', 'pagehide', 'mousemove', 'mouseover', 'mouseout', 'click', 'keydown', 'keyup']);

/**
 * Focus changes a kept script or timer made (element.focus(), Appendix A's '*' events): dispatched
 * inside it, they run before the rest of it (rules/split.ts).
 */
export const isScriptFocus = (c: ComputationActivity): boolean => c.kind === 'Event' && FOCUS_EVENTS.has(c.eventName ?? '');
const FOCUS_EVENTS = new Set(['focus', 'blur', 'focusin', 'focusout']);

export function selectComputations(acts: Activities): Set<string> {
  const issues = new Map<string, boolean>();
  for (const r of acts.resources) if (r.issuedBy.kind === 'computation') issues.set(r.issuedBy.id, true);
  const children = new Map<string, string[]>();
  for (const c of acts.computations) {
    if (c.triggeredBy.kind === 'computation') {
      const list = children.get(c.triggeredBy.id);
      if (list) list.push(c.id);
      else children.set(c.triggeredBy.id, [c.id]);
    }
  }
  // Children start no earlier than their cause, so a reverse pass in start order settles every descendant
  // first (a pointer mix-up that breaks this only loses a descendant, never loops).
  const downloads = new Map<string, boolean>();
  for (let i = acts.computations.length - 1; i >= 0; i--) {
    const c = acts.computations[i]!;
    let d = (issues.get(c.id) ?? false);
    if (!d) for (const k of children.get(c.id) ?? []) if (downloads.get(k)) d = true;
    downloads.set(c.id, d);
  }
  const keep = new Set<string>();
  for (const c of acts.computations) {
    const d = downloads.get(c.id) ?? false;
    if (c.kind === 'ScriptEval' || c.kind === 'CssEval') keep.add(c.id);
    else if (c.kind === 'Timer') {
      if (d) keep.add(c.id);
    } else if (!NEVER.has(c.eventName ?? '') && (d || LOAD_EVENTS.has(c.eventName ?? ''))) keep.add(c.id);
    else if (isScriptFocus(c) && c.triggeredBy.kind === 'computation' && keep.has(c.triggeredBy.id)) keep.add(c.id);
  }
  return keep;
}
