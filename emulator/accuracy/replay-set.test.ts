import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Har } from '@pcp/profiler';
import { mergeReplaySet } from './replay-set.ts';

const har = (urls: string[]): Har => ({
  log: {
    version: '1.2',
    creator: { name: 'pcp', version: '0' },
    pages: [{ startedDateTime: '2026-01-01T00:00:00Z', id: 'page_1', title: urls[0]!, pageTimings: { onContentLoad: 1, onLoad: 2 } }],
    entries: urls.map((url) => ({ pageref: 'page_1', request: { method: 'GET', url } }) as unknown as Har['log']['entries'][number]),
  },
});

test('mergeReplaySet: entries and delay records concatenated in page order, page refs kept unique', () => {
  const a = { name: 'a', har: har(['https://a.pcp.test:1/a/index.html', 'https://a.pcp.test:1/style.css']), delays: [{ url: 'https://a.pcp.test:1/a/index.html', delayMs: 3 }] };
  const b = { name: 'b', har: har(['https://a.pcp.test:1/b/index.html', 'https://a.pcp.test:1/style.css']), delays: { records: [{ url: 'https://a.pcp.test:1/b/index.html', delayMs: 5 }] } };
  const { har: merged, records } = mergeReplaySet([a, b]);
  assert.deepEqual(merged.log.entries.map((e) => e.request.url), [...a.har.log.entries, ...b.har.log.entries].map((e) => e.request.url));
  assert.deepEqual(merged.log.pages.map((p) => p.id), ['a/page_1', 'b/page_1']);
  assert.deepEqual(merged.log.entries.map((e) => e.pageref), ['a/page_1', 'a/page_1', 'b/page_1', 'b/page_1']);
  assert.deepEqual(records, [{ url: 'https://a.pcp.test:1/a/index.html', delayMs: 3 }, { url: 'https://a.pcp.test:1/b/index.html', delayMs: 5 }]);
  // The members' own archives are untouched.
  assert.equal(a.har.log.entries[0]!.pageref, 'page_1');
  assert.throws(() => mergeReplaySet([]), /at least one recording/);
  assert.throws(() => mergeReplaySet([{ name: 'x', har: har(['https://x/']), delays: { nope: 1 } }]), /x: the server delays are not a list/);
});
