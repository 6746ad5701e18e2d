/** The page's frames' DOMContentLoaded and load marks (MarkDOMContent, MarkLoad), from time 0 on, by time. */
import type { Handler } from '../../handler.ts';
import type { Mark } from '../load.ts';
import { isMark, markData, text, threadOf, type MarkEvent, type TraceEvent } from '../trace-events.ts';
import type { FrameData } from './frames.ts';
import { ready } from './run.ts';

export interface MarkData {
  marks: Mark[];
}

export function markHandler(): Handler<TraceEvent, MarkData, { frames: FrameData }> {
  let events: MarkEvent[] = [];
  let out: MarkData | undefined;
  return {
    kinds: ['MarkDOMContent', 'MarkLoad'],
    deps: ['frames'],
    reset() {
      events = [];
      out = undefined;
    },
    handleEvent(e) {
      if (isMark(e)) events.push(e);
    },
    finalize({ frames }) {
      const marks: Mark[] = [];
      for (const e of events) {
        const frame = text(markData(e).frame);
        if (frame && frames.frames.has(frame) && e.ts >= frames.origin) marks.push({ frame, name: e.name === 'MarkLoad' ? 'load' : 'domContentLoaded', time: frames.ms(e.ts), thread: threadOf(e) });
      }
      out = { marks: marks.sort((a, b) => a.time - b.time) };
    },
    data: () => ready(out, 'marks'),
  };
}
