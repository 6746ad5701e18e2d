import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cacheHitUrls, warmUpDocumentUrl } from './cache-hits.ts';
import type { ReplayEntry } from './archive.ts';

const entry = (url: string, more: Partial<ReplayEntry> = {}): ReplayEntry =>
  ({ index: 0, method: 'GET', url, status: 200, statusText: 'OK', headers: [], body: undefined, protocol: 'h2', delayMs: 0, ...more });

test('a URL is warmed when every response of it came from the cache, once, GET 2xx only', () => {
  const urls = cacheHitUrls({
    pageUrl: 'http://www.example.org/',
    entries: [
      entry('http://www.example.org/'),
      entry('http://img.example.net/a.png', { fromCache: true }),
      entry('http://img.example.net/a.png', { fromCache: true }),
      entry('http://img.example.net/b.png', { fromCache: true }),
      entry('http://img.example.net/b.png'), // also fetched from the network: left to it
      entry('http://img.example.net/c.png', { fromCache: true, status: 404 }),
      entry('http://api.example.net/p', { fromCache: true, method: 'POST' }),
    ],
  });
  assert.deepEqual(urls, ['http://img.example.net/a.png']);
});

test('an https page warms no http URL (mixed content), only https ones', () => {
  const urls = cacheHitUrls({
    pageUrl: 'https://www.example.org/',
    entries: [entry('https://www.example.org/'), entry('http://x.example.net/a.js', { fromCache: true }), entry('https://x.example.net/a.js', { fromCache: true })],
  });
  assert.deepEqual(urls, ['https://x.example.net/a.js']);
});

test('the warm-up document is the page origin\'s well-known path', () => {
  assert.equal(warmUpDocumentUrl('https://www.example.org:8443/a/b?c#d'), 'https://www.example.org:8443/.pcp-cache-warm-up');
});
