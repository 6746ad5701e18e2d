import type { RawCached, RawReceivedChunk, RawResource } from '../records.ts';
import type { LogRecord } from '../reader.ts';
import { lined, type Handler, type Lined } from './handler.ts';

/** `Resource` (a network fetch), its `ReceivedChunk`s (body bytes as they arrived), and `Cached`
 *  (a memory-cache hit: an element reused an already fetched url; `from` is the requesting object). */
export interface ResourceData {
  resources: Lined<RawResource>[];
  chunks: Map<number, RawReceivedChunk[]>;
  cached: Lined<RawCached>[];
}

export function resourceHandler(): Handler<ResourceData> {
  const d: ResourceData = { resources: [], chunks: new Map(), cached: [] };
  return {
    kinds: ['Resource', 'ReceivedChunk', 'Cached'],
    handleEvent(r: LogRecord) {
      if (r.kind === 'Resource') d.resources.push(lined(r.value as RawResource, r.line));
      else if (r.kind === 'Cached') d.cached.push(lined(r.value as RawCached, r.line));
      else {
        const c = r.value as RawReceivedChunk;
        const list = d.chunks.get(c.resourceId);
        if (list) list.push(c);
        else d.chunks.set(c.resourceId, [c]);
      }
    },
    finalize() {
      d.resources.sort((a, b) => a.sentTime - b.sentTime);
      d.cached.sort((a, b) => a.accessTime - b.accessTime);
      for (const list of d.chunks.values()) list.sort((a, b) => a.receivedTime - b.receivedTime);
    },
    data: () => d,
  };
}
