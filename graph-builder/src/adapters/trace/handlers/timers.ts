/** Timer installs (setTimeout / setInterval) on the page's threads, with what was running when each was set. */
import type { Handler } from '../../handler.ts';
import type { TimerInstall } from '../load.ts';
import { callFrames, finite, isTimerInstall, text, threadOf, timerInstallData, type TimerInstallEvent, type TraceEvent } from '../trace-events.ts';
import type { FrameData } from './frames.ts';
import type { InitiatorData } from './initiators.ts';
import { ready } from './run.ts';
import type { ThreadData } from './threads.ts';

export interface TimerData {
  /** In trace order. */
  timers: TimerInstall[];
}

export function timerHandler(): Handler<TraceEvent, TimerData, { frames: FrameData; threads: ThreadData; initiators: InitiatorData }> {
  let installs: TimerInstallEvent[] = [];
  let out: TimerData | undefined;
  return {
    kinds: ['TimerInstall'],
    deps: ['frames', 'threads', 'initiators'],
    reset() {
      installs = [];
      out = undefined;
    },
    handleEvent(e) {
      if (isTimerInstall(e)) installs.push(e);
    },
    finalize({ frames, threads, initiators }) {
      const timers: TimerInstall[] = [];
      for (const e of installs) {
        const d = timerInstallData(e);
        const frame = text(d.frame);
        if (!threads.threads.has(threadOf(e)) || (frame && !frames.frames.has(frame)) || e.ts < frames.origin) continue;
        const t: TimerInstall = { timerId: text(d.timerId) ?? '', timeout: finite(d.timeout) ?? 0, singleShot: d.singleShot !== false, time: frames.ms(e.ts) };
        if (frame) t.frame = frame;
        const stack = callFrames(d.stackTrace);
        if (stack) t.stack = stack;
        const running = initiators.enclosing(threadOf(e), t.time);
        if (running !== undefined) t.runningAt = running;
        timers.push(t);
      }
      out = { timers };
    },
    data: () => ready(out, 'timers'),
  };
}
