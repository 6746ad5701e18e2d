/**
 * The page's renderer main threads: those that issued requests for, parsed or evaluated scripts in one
 * of the page's frames (other renderers' threads, such as the WebUI's, are noise).
 */
import type { Handler } from '../../handler.ts';
import { ready } from './run.ts';
import { FRAME_WORK, isResourceSendRequest, sendRequestData, sliceData, text, threadOf, type TraceEvent } from '../trace-events.ts';
import type { FrameData } from './frames.ts';

export interface ThreadData {
  /** `pid:tid` of each of the page's threads. */
  threads: Set<string>;
}

export function threadHandler(): Handler<TraceEvent, ThreadData, { frames: FrameData }> {
  /** Frame id -> threads that worked for it. */
  let byFrame = new Map<string, Set<string>>();
  let out: ThreadData | undefined;
  return {
    kinds: FRAME_WORK,
    deps: ['frames'],
    reset() {
      byFrame = new Map();
      out = undefined;
    },
    handleEvent(e) {
      const frame = text(isResourceSendRequest(e) ? sendRequestData(e).frame : sliceData(e).frame);
      if (!frame) return;
      const set = byFrame.get(frame) ?? byFrame.set(frame, new Set()).get(frame)!;
      set.add(threadOf(e));
    },
    finalize({ frames }) {
      const threads = new Set<string>();
      for (const [frame, set] of byFrame) if (frames.frames.has(frame)) for (const t of set) threads.add(t);
      out = { threads };
    },
    data: () => ready(out, 'threads'),
  };
}
