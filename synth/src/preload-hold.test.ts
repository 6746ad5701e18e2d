import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ResourceNode } from '@pcp/graph-builder';
import { endByLeast, heldFetch } from './preload-hold.ts';
import { res } from './testing.ts';

// www.capitalone.com's option-1-btn.png: drawn 5,244-8,103 (the scanner's ask at 2,531 to the end at 5,390,
// from the parser's access), sent at 5,205: 185 ms on the network.
const hold = { askedAt: 2531, sentAt: 5205, receivedAt: 5390 };
const img = (extra?: Record<string, unknown>, start = 5244, end = 8103) =>
  ({ frame: 'main', ...res('i', 'https://www.pcp.test/option-1-btn.png', 'image/png', 3617, { start, end, ...(extra && { extra }) }) }) as ResourceNode;

test('a held preload never ends sooner than its network span after its request', () => {
  const r = img({ preloadHold: hold });
  assert.deepEqual(heldFetch(r), hold);
  assert.equal(endByLeast(r), 185); // 5,390 - 5,205
});

test('no hold, or one no shorter than the drawn span, or malformed: none', () => {
  for (const r of [img(), img({ preloadHold: hold }, 5205, 5390), img({ preloadHold: { ...hold, sentAt: '5205' } }), img({ preloadHold: { ...hold, sentAt: 5390, receivedAt: 5205 } }), img({ preloadHold: { sentAt: 5205, receivedAt: 5390 } }), img({ preloadHold: { ...hold, askedAt: 5300 } })]) {
    assert.equal(heldFetch(r), undefined);
    assert.equal(endByLeast(r), undefined);
  }
});
