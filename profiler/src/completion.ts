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
}

export interface CompletionLimits {
  quietMs: number;
  stallMs: number;
}

export type Verdict = { end: false } | { end: true; reason: EndReason };

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
  if (s.loadFired && s.now >= (s.quietFrom ?? -Infinity) && s.now - s.lastActivity >= limits.quietMs && liveRequests(s.now, s.inFlight, limits.stallMs) === 0) return end('quiet');
  return CONTINUE;
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
