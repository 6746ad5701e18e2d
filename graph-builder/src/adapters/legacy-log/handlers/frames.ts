import type { RawFrame, RawFrameChange } from '../records.ts';
import type { LogRecord } from '../reader.ts';
import { lined, type Handler, type Lined } from './handler.ts';

/** `Frame`: code = frame id, id = id of the Resource holding its document, parent = parent frame code ("0": none).
 *  `FrameChange`: a frame navigated by script (`comp`) to `url`. */
export interface FrameData {
  frames: Lined<RawFrame>[];
  changes: Lined<RawFrameChange>[];
}

export function frameHandler(): Handler<FrameData> {
  const d: FrameData = { frames: [], changes: [] };
  const seen = new Set<string>();
  return {
    kinds: ['Frame', 'FrameChange'],
    handleEvent(r: LogRecord) {
      if (r.kind === 'Frame') {
        const f = r.value as RawFrame;
        if (seen.has(f.code)) return; // a frame is reported once per load; repeats add nothing
        seen.add(f.code);
        d.frames.push(lined(f, r.line));
      } else d.changes.push(lined(r.value as RawFrameChange, r.line));
    },
    finalize() {},
    data: () => d,
  };
}
