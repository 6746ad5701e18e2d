/**
 * The page's single-shot timers as they happen, for the completion policy: the trace has them
 * (TimerInstall/TimerFire/TimerRemove) but Chromium hands the trace over only when tracing ends, so a
 * capture cannot wait on it. A small script, run in every frame's main world before the page's own
 * (`Page.addScriptToEvaluateOnNewDocument`), reports each `setTimeout` with a function callback (id,
 * delay, the page's clock), its callback's start and return, and each `clearTimeout`, through a
 * `Runtime.addBinding` binding.
 *
 * What the page sees: `setTimeout`/`clearTimeout` are plain functions instead of native ones (their
 * `toString()` shows source), the binding is deleted from the global object before the page runs, and
 * a timer's callback is called through one extra frame (in the trace: the timer's FunctionCall slice
 * names `pcpTimerFired`, the page's callback runs inside it; TimerInstall stacks start with the hook's
 * frame). Timer ids, delays, `this`, extra arguments, string callbacks (not tracked) and the order of
 * timers are the browser's own. `setInterval` is not touched: a repeating timer never holds a capture.
 *
 * `PendingTimers` keeps what the reports say, per session and execution context (a document's timers
 * die with it: `Runtime.executionContextDestroyed`). Pure but for its own state.
 */

export const TIMER_BINDING = '__pcpTimer';

/** The page-side hook (a classic script; no page code has run when it does). */
export const TIMER_HOOK_SOURCE = `(() => {
  const report = globalThis.${TIMER_BINDING};
  if (typeof report !== 'function') return;
  delete globalThis.${TIMER_BINDING};
  const nativeSet = globalThis.setTimeout, nativeClear = globalThis.clearTimeout, now = Date.now;
  globalThis.setTimeout = function setTimeout(handler, timeout, ...args) {
    if (typeof handler !== 'function') return nativeSet.apply(this, arguments);
    let id;
    const pcpTimerFired = function () {
      report('f ' + id);
      try { return handler.apply(this, arguments); } finally { report('d ' + id); }
    };
    id = nativeSet.call(this, pcpTimerFired, timeout, ...args);
    report('i ' + id + ' ' + (Number(timeout) > 0 ? Number(timeout) : 0) + ' ' + now());
    return id;
  };
  globalThis.clearTimeout = function clearTimeout(id) {
    report('c ' + id);
    return nativeClear.apply(this, arguments);
  };
})();
//# sourceURL=pcp-timer-hook.js
`;

/** One report of the hook: a timer installed (due on the page's wall clock, ms), fired (its callback started), done (returned), or cleared. */
export type TimerReport = { kind: 'install'; id: string; timeout: number; due: number } | { kind: 'fire' | 'done' | 'clear'; id: string };

/** The hook's payload, or undefined when it is not one (a page calling the binding itself cannot get past this). */
export function parseTimerReport(payload: string): TimerReport | undefined {
  const m = /^(?:i (\d+) (\d+(?:\.\d+)?) (\d+(?:\.\d+)?)|([fdc]) (\d+))$/.exec(payload);
  if (!m) return undefined;
  if (m[1] !== undefined) return { kind: 'install', id: m[1], timeout: Number(m[2]), due: Number(m[3]) + Number(m[2]) };
  return { kind: m[4] === 'f' ? 'fire' : m[4] === 'd' ? 'done' : 'clear', id: m[5]! };
}

/**
 * The page's single-shot timers not yet fired or cleared, with when they are due (ms, wall clock), and
 * those whose callback is running (started, not returned: a renderer held up inside it).
 */
export class PendingTimers {
  private readonly due = new Map<string, number>();
  private readonly running = new Set<string>();
  /** When a tracked timer's callback last started or returned (ms, the caller's clock); -Infinity before any. */
  lastFire = -Infinity;
  /** Timers seen installed / fired, for meta. */
  installed = 0;
  fired = 0;

  /** A `Runtime.bindingCalled` of the hook's binding, in session `sid`, at `now`. */
  report(sid: string, contextId: number, payload: string, now: number): void {
    const r = parseTimerReport(payload);
    if (!r) return;
    const key = `${sid}:${contextId}:${r.id}`;
    if (r.kind === 'install') {
      this.installed++;
      this.due.set(key, r.due);
    } else if (r.kind === 'done') {
      if (this.running.delete(key)) this.lastFire = now;
    } else if (this.due.delete(key) && r.kind === 'fire') {
      this.fired++;
      this.running.add(key);
      this.lastFire = now;
    }
  }

  /** Callbacks started and not returned. */
  get runningCount(): number {
    return this.running.size;
  }

  /** A document (execution context) went away, or all of a session's (`contextId` undefined): its timers never fire. */
  contextGone(sid: string, contextId?: number): void {
    const prefix = contextId === undefined ? `${sid}:` : `${sid}:${contextId}:`;
    for (const k of [...this.due.keys()]) if (k.startsWith(prefix)) this.due.delete(k);
    for (const k of [...this.running]) if (k.startsWith(prefix)) this.running.delete(k);
  }

  /** Due times of the timers still pending. */
  dueTimes(): IterableIterator<number> {
    return this.due.values();
  }
}

/** A CDP connection's send, as much as the hook needs. */
type Send = (method: string, params: Record<string, unknown>, sessionId?: string) => Promise<unknown>;

/** Installs the hook in session `sid`'s frames from their next document on (call before navigating, or before a child runs). */
export async function installTimerHook(cdp: { send: Send }, sid: string): Promise<void> {
  await cdp.send('Runtime.addBinding', { name: TIMER_BINDING }, sid);
  await cdp.send('Page.addScriptToEvaluateOnNewDocument', { source: TIMER_HOOK_SOURCE }, sid);
}
