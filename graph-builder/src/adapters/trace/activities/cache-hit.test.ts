import { test } from 'node:test';
import assert from 'node:assert/strict';
import { answeredFromCache, resourceStart } from './cache-hit.ts';

// capitalone's badge-config-v1.js in session 15's kept load (page ms): sent 2,529.8, Blink's scheduler released it
// 1,329 ms later, the disk cache answered at 3,926.3 (ResourceReceiveResponse fromCache, encodedDataLength 0).
const hit = { send: 2529.8, response: 3926.3, fromCache: true, encodedLength: 0 };

test('a cache hit starts at its cached response: the lookup before it is the browser\'s, not a download', () => {
  assert.equal(answeredFromCache(hit), true);
  assert.equal(resourceStart(hit), 3926.3);
});

test('a network response, a revalidated one (its 304 headers came over the network) and a hit without a response start at the send', () => {
  assert.equal(resourceStart({ ...hit, fromCache: false, encodedLength: 60_500 }), 2529.8);
  assert.equal(answeredFromCache({ fromCache: true, encodedLength: 212 }), false);
  assert.equal(resourceStart({ ...hit, encodedLength: 212 }), 2529.8);
  assert.equal(resourceStart({ ...hit, response: undefined }), 2529.8);
});

test('a response stamped before the send (a clock skew of the trace) never starts the node before it', () => {
  assert.equal(resourceStart({ ...hit, response: 2529.1 }), 2529.8);
});
