/**
 * The load monitor: follows the protocol events of a page load and keeps what the completion policy
 * (completion.ts) judges — load fired, last activity, requests in flight with their last progress, a
 * crash, a lost browser, a download, the page's pending single-shot timers (timer-hook.ts) — and
 * wakes waiters on every event. It holds no browser: feed it events (`observe`) and ask it for a
 * `state` at any instant; the clock is injectable for tests.
 */
import type { LoadState } from './completion.ts';
import { PendingTimers, TIMER_BINDING } from './timer-hook.ts';

/** Events that show the page is still loading something. */
export const ACTIVITY = /^(Network\.(requestWillBeSent|responseReceived|dataReceived|loadingFinished|loadingFailed|requestServedFromCache)|Page\.(frameNavigated|frameStartedLoading|frameRequestedNavigation|frameAttached))$/;

export class LoadMonitor {
  lastActivity: number;
  /** requestId -> last progress time. Request ids are browser-wide (an OOPIF's navigation starts in its parent's session). */
  readonly inFlight = new Map<string, number>();
  loadFired = false;
  /** Why a renderer crashed ('' while none did). */
  crashed = '';
  browserGone = false;
  downloadSeen = false;
  /** The page's single-shot timers, as the timer hook reports them. */
  readonly timers = new PendingTimers();
  /** When timers first held open a capture the network let end (set by the capture loop). */
  timersHeldSince: number | undefined;
  private wake: (() => void)[] = [];

  constructor(private readonly clock: () => number = Date.now) {
    this.lastActivity = clock();
  }

  /**
   * One protocol event of the page's session (`fromPage`) or of a child target's (`sid`: the session,
   * which scopes timer ids); `crashLabel` says whose renderer it was should the event be Inspector.targetCrashed.
   */
  observe(method: string, params: Record<string, unknown>, fromPage: boolean, crashLabel = 'the page renderer crashed', sid = ''): void {
    const now = this.clock();
    if (ACTIVITY.test(method)) this.lastActivity = now;
    const id = typeof params.requestId === 'string' ? params.requestId : '';
    switch (method) {
      case 'Network.requestWillBeSent':
        this.inFlight.set(id, now);
        break;
      case 'Network.responseReceived':
      case 'Network.dataReceived':
        if (this.inFlight.has(id)) this.inFlight.set(id, now);
        break;
      case 'Network.loadingFinished':
      case 'Network.loadingFailed':
        this.inFlight.delete(id);
        break;
      case 'Page.loadEventFired':
        if (fromPage) this.loadFired = true;
        break;
      case 'Inspector.targetCrashed':
        this.crashed = crashLabel;
        break;
      case 'Runtime.bindingCalled':
        if (params.name === TIMER_BINDING && typeof params.payload === 'string') this.timers.report(sid, Number(params.executionContextId), params.payload, now);
        break;
      case 'Runtime.executionContextDestroyed':
        this.timers.contextGone(sid, Number(params.executionContextId));
        break;
      case 'Runtime.executionContextsCleared':
        this.timers.contextGone(sid);
        break;
    }
    this.poke();
  }

  /** Browser.downloadWillBegin (a browser-level event, outside the page's sessions). */
  downloadBegan(): void {
    this.downloadSeen = true;
    this.poke();
  }

  /** The browser connection closed. */
  browserClosed(): void {
    this.browserGone = true;
    this.poke();
  }

  /** What the completion policy needs at this instant; `quietFrom`: quiet may not end the load before it. */
  state(deadline: number, quietFrom?: number): LoadState {
    return {
      now: this.clock(), deadline, quietFrom, loadFired: this.loadFired, lastActivity: this.lastActivity, inFlight: this.inFlight.values(),
      crashed: Boolean(this.crashed), browserGone: this.browserGone, downloadSeen: this.downloadSeen,
      timersDue: this.timers.dueTimes(), lastTimerFire: this.timers.lastFire, timersRunning: this.timers.runningCount, timersHeldSince: this.timersHeldSince,
    };
  }

  /** Resolves on the next event, or after `ms` at most. */
  next(ms = 100): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wake.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /** Resolves when cond() holds, re-checked on every event and at least every 100 ms. */
  async until(cond: () => boolean): Promise<void> {
    while (!cond()) await this.next();
  }

  private poke(): void {
    for (const w of this.wake.splice(0)) w();
  }
}
