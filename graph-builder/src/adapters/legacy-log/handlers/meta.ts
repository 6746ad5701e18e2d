import type { LogRecord } from '../reader.ts';
import type { Handler } from './handler.ts';

/** `page` (the url asked for), `DOMLoad` (a dump-time stamp, unused), `Complete` (end of log). */
export interface MetaData {
  page?: string;
  pageLine?: number;
  complete: boolean;
}

export function metaHandler(): Handler<MetaData> {
  const d: MetaData = { complete: false };
  return {
    kinds: ['page', 'DOMLoad', 'Complete'],
    handleEvent(r: LogRecord) {
      if (r.kind === 'page' && d.page === undefined) {
        d.page = r.value as string;
        d.pageLine = r.line;
      } else if (r.kind === 'Complete') d.complete = true;
    },
    finalize() {},
    data: () => d,
  };
}
