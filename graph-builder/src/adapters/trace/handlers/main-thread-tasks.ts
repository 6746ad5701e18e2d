/**
 * The main frame's renderer main thread's top-level tasks (`RunTask`, category
 * disabled-by-default-devtools.timeline) from time 0 on: everything that thread did, graph computations
 * (parsing, scripts, style sheets, timers, events) and the work no graph node holds (style, layout,
 * paint, garbage collection, the loader's own tasks). The main thread is the one that sent the main
 * document's request in the trace (ResourceSendRequest at time 0).
 */
import type { Handler } from '../../handler.ts';
import { finite, threadOf, type TraceEvent } from '../trace-events.ts';
import type { FrameData } from './frames.ts';
import type { RequestData } from './requests.ts';
import { ready } from './run.ts';

export interface MainThreadTaskData {
  /** [start, end] page ms, by start; nested tasks (a nested run loop) are inside their parent's span. */
  tasks: Array<[number, number]>;
}

export function mainThreadTaskHandler(): Handler<TraceEvent, MainThreadTaskData, { frames: FrameData; requests: RequestData }> {
  let byThread = new Map<string, Array<[number, number]>>(); // raw µs
  let out: MainThreadTaskData | undefined;
  return {
    kinds: ['RunTask'],
    deps: ['frames', 'requests'],
    reset() {
      byThread = new Map();
      out = undefined;
    },
    handleEvent(e) {
      const dur = finite(e.dur);
      if (e.ph !== 'X' || dur === undefined) return;
      const k = threadOf(e);
      (byThread.get(k) ?? byThread.set(k, []).get(k)!).push([e.ts, e.ts + dur]);
    },
    finalize({ frames, requests }) {
      const thread = requests.documentThread;
      const raw = (thread !== undefined ? byThread.get(thread) : undefined) ?? [];
      const tasks: Array<[number, number]> = [];
      for (const [a, b] of raw.sort((x, y) => x[0] - y[0])) {
        if (b < frames.origin) continue;
        const last = tasks[tasks.length - 1];
        const s = Math.max(0, frames.ms(a));
        const t = frames.ms(b);
        if (last && s <= last[1]) last[1] = Math.max(last[1], t); // nested or touching: one span
        else tasks.push([s, t]);
      }
      out = { tasks };
      byThread = new Map();
    },
    data: () => ready(out, 'mainThreadTasks'),
  };
}
