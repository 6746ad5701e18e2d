/**
 * A request Chromium answered from its HTTP cache, the network never asked: its resource node is the cached
 * response reaching the renderer, from that response to its finish. Nothing was downloaded; the time from
 * the renderer's request to the cached response (Blink's scheduler, the network service's hop, the cache's
 * lookup) is the browser's, and stays in the node's `browserDelay`. The thesis's graphs draw a cache hit
 * as taking no time (§3.7.5: "cached resource durations will consume zero time"; the 2016 log's `Cached`
 * record is one instant, the memory cache's access), and Algorithm 1 counts a node's duration: a lookup
 * drawn as the download put a hit on the rebuilt critical path that its source graph never had there
 * (capitalone's `badge-config-v1.js`, 1,396 ms of which Blink's scheduler held 1,329). Pure.
 */
import type { TraceRequest } from '../load.ts';

/**
 * Whether the request is a cache hit: its response came from the HTTP cache (`fromCache`) and no byte of it
 * over the network (ResourceFinish's `encodedDataLength` 0: a revalidation's 304 counts its headers).
 */
export const answeredFromCache = (r: Pick<TraceRequest, 'fromCache' | 'encodedLength'>): boolean => r.fromCache && r.encodedLength === 0;

/** Where the request's resource node starts: a cache hit's at its cached response, any other's at its send. */
export function resourceStart(r: Pick<TraceRequest, 'send' | 'response' | 'fromCache' | 'encodedLength'>): number {
  return answeredFromCache(r) && r.response !== undefined ? Math.max(r.send, r.response) : r.send;
}
