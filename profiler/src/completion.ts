/**
 * The completion policy (thesis §3.7: wait for onload, then for the page to go quiet), as pure
 * functions of what the load monitor has seen: no clock, no browser.
 *
 * After the main frame's load event the capture ends once no network event and no frame navigation
 * has happened for `quietMs`, not counting requests that made no progress for `stallMs` (long polls
 * and hung responses must not hold a capture open). The whole load is capped by a deadline: the
 * reason is 'timeout' after load, 'no-load' when load never fired. A crash, a lost browser or a
 * download (before load) ends it at once. `quietFrom` (a replayed site whose source is known to be
 * active until then) keeps quiet from ending the capture before that instant; the deadline still does.
 *
 * The page's single-shot timers (timer-hook.ts) count too: a timer callback's start and return are
 * activity, one still running keeps quiet off, and so does a timer still pending that is due within
 * `timerHorizonMs` (overdue included: a renderer held up on a loaded machine owes it). Timers can hold the capture open for at most
 * `timerCapMs` after the network alone was first quiet (`timersHeldSince`): a page that re-arms a
 * timer forever ends there (`timerCap` in the verdict). Repeating timers are not tracked at all.
 */
import type { EndReason } from './bundle.ts';

/** What the load monitor knows at one instant (times in ms on one clock). */
export interface LoadState {
  now: number;
  /** When the load must be over (navigation sent + timeout). */
  deadline: number;
  loadFired: boolean;
  /** Last network event or frame navigation. */
  lastActivity: number;
  /** Last progress of each request still in flight. */
  inFlight: Iterable<number>;
  /** Quiet may end the capture only from this instant on (absent: as soon as load fired). */
  quietFrom?: number;
  /** The page's (or a child target's) renderer crashed. */
  crashed: boolean;
  /** The browser connection closed. */
  browserGone: boolean;
  /** Chromium began (and refused) a download. */
  downloadSeen: boolean;
  /** Due times of the page's pending single-shot timers (absent: timers not tracked). */
  timersDue?: Iterable<number>;
  /** When a tracked timer's callback last started or returned. */
  lastTimerFire?: number;
  /** Tracked timer callbacks started and not returned (a renderer held up inside one). */
  timersRunning?: number;
  /** When timers first held open a capture the network let end (absent: they have not). */
  timersHeldSince?: number;
}

export interface CompletionLimits {
  quietMs: number;
  stallMs: number;
  /** A pending single-shot timer due within this (ms after now) holds quiet; 0: timers never do. */
  timerHorizonMs?: number;
  /** Timers hold quiet at most this long (ms) after the network alone was quiet. */
  timerCapMs?: number;
}

/** `heldByTimers`: only timers keep the capture going. `timerCap`: quiet reached at the timers' cap with timers still due. */
export type Verdict = { end: false; heldByTimers?: true } | { end: true; reason: EndReason; timerCap?: true };

const CONTINUE: Verdict = { end: false };
const end = (reason: EndReason): Verdict => ({ end: true, reason });

/** Requests in flight that made progress within `stallMs` of `now`. */
export function liveRequests(now: number, inFlight: Iterable<number>, stallMs: number): number {
  let n = 0;
  for (const t of inFlight) if (now - t < stallMs) n++;
  return n;
}

/** Whether the capture of a navigated page goes on, or ends and why. */
export function completionVerdict(s: LoadState, limits: CompletionLimits): Verdict {
  if (s.browserGone) return end('browser-crash');
  if (s.crashed) return end('renderer-crash');
  if (s.downloadSeen && !s.loadFired) return end('download');
  if (s.now >= s.deadline) return end(s.loadFired ? 'timeout' : 'no-load');
  if (!(s.loadFired && s.now >= (s.quietFrom ?? -Infinity) && s.now - s.lastActivity >= limits.quietMs && liveRequests(s.now, s.inFlight, limits.stallMs) === 0)) return CONTINUE;
  if (!timersBusy(s, limits)) return end('quiet');
  if (s.timersHeldSince !== undefined && s.now - s.timersHeldSince >= (limits.timerCapMs ?? 0)) return { end: true, reason: 'quiet', timerCap: true };
  return { end: false, heldByTimers: true };
}

/** A tracked timer's callback is running or started or returned within the quiet window, or one is pending and due within the horizon. */
export function timersBusy(s: Pick<LoadState, 'now' | 'timersDue' | 'lastTimerFire' | 'timersRunning'>, limits: CompletionLimits): boolean {
  const horizon = limits.timerHorizonMs ?? 0;
  if (horizon <= 0 || !s.timersDue) return false;
  if ((s.timersRunning ?? 0) > 0 || s.now - (s.lastTimerFire ?? -Infinity) < limits.quietMs) return true;
  for (const due of s.timersDue) if (due <= s.now + horizon) return true;
  return false;
}

/** Page.navigate's answer; undefined when it never came (crash, lost browser, deadline). */
export interface NavigationAnswer {
  errorText?: string;
  isDownload?: boolean;
}

/**
 * How the navigation itself ended the capture, if it did: no answer, a crash, a download, or a
 * navigation error (`net::ERR_…`). Undefined: the page is loading, wait with `completionVerdict`.
 * Judge a navigation error only after a short grace period: a crash or a download aborts the
 * navigation (net::ERR_ABORTED) just before it is reported.
 */
export function navigationVerdict(
  nav: NavigationAnswer | undefined, s: Pick<LoadState, 'crashed' | 'browserGone' | 'downloadSeen'>,
): { reason: EndReason; navError?: string } | undefined {
  if (!nav || s.crashed || s.browserGone) return { reason: s.browserGone ? 'browser-crash' : s.crashed ? 'renderer-crash' : 'no-load' };
  if (nav.isDownload || (nav.errorText && s.downloadSeen)) return { reason: 'download' };
  if (nav.errorText) return { reason: 'unreachable', navError: nav.errorText };
  return undefined;
}
