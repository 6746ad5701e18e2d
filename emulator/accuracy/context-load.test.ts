/**
 * Fresh-context loads in one real Chromium: the example site (cacheable resources: max-age=600, TLS
 * origins) loaded twice in the same browser must be cold both times — a new connection with a TLS
 * handshake for the document and nothing from a cache.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { startTestServer } from '@pcp/profiler/testing';
import { coldness, openLoadBrowser, warmReason, type TimingEntry } from './context-load.ts';

const EXAMPLE = fileURLToPath(new URL('../../profiler/example-site/', import.meta.url));

test('two loads of a cacheable page in one Chromium, each in a fresh context: both cold', async () => {
  const server = await startTestServer({ root: EXAMPLE, origins: [{ name: 'a', tls: true }, { name: 'b', tls: true }] });
  const browser = await openLoadBrowser({ chromiumArgs: [`--host-resolver-rules=${server.hostResolverRules}`, '--ignore-certificate-errors'] });
  try {
    for (let i = 0; i < 2; i++) {
      const r = await browser.load(server.urls.a + 'index.html', 120_000);
      assert.equal(warmReason(r.cold, true), undefined, `load ${i + 1}: ${JSON.stringify(r.cold)}`);
      assert.equal(r.cold.protocol, 'http/1.1');
      assert.ok(r.domContentLoadedTime > 0 && r.domContentLoadedTime <= r.loadTime, JSON.stringify(r));
    }
    // The same URL was requested in both contexts: the server saw the document twice.
    assert.equal(server.requests.filter((q) => q.path === '/index.html').length, 2);
  } finally {
    await browser.close();
    await server.close();
  }
});

const entry = (o: Partial<TimingEntry>): TimingEntry => ({ name: 'https://a.test/x', connectStart: 10, connectEnd: 30, secureConnectionStart: 15, transferSize: 500, decodedBodySize: 200, nextHopProtocol: 'h2', ...o });

test('coldness: a reused connection, a skipped handshake and cache hits are each named', () => {
  assert.equal(warmReason(coldness(entry({}), [entry({})]), true), undefined);
  assert.match(warmReason(coldness(entry({ connectStart: 5, connectEnd: 5 }), []), true)!, /reused a connection/);
  assert.match(warmReason(coldness(entry({ secureConnectionStart: 0 }), []), true)!, /TLS handshake/);
  assert.equal(warmReason(coldness(entry({ secureConnectionStart: 0 }), []), false), undefined);
  // A cross-origin resource without Timing-Allow-Origin reports 0 and 0: not counted as a cache hit.
  const c = coldness(entry({}), [entry({ name: 'https://a.test/y', transferSize: 0 }), entry({ name: 'https://a.test/z', transferSize: 0, decodedBodySize: 0 })]);
  assert.equal(c.cachedResources, 1);
  // A URL the same load also fetched over the network: the page reused its own copy.
  assert.equal(coldness(entry({}), [entry({}), entry({ transferSize: 0 })]).cachedResources, 0);
  assert.match(warmReason(c, true)!, /1 resource\(s\) came from a cache/);
  assert.equal(c.protocol, 'h2');
});
