import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PageBuilder } from '@pcp/graph-builder/testing';
import { simulateChecked, timingOf } from '../src/testing/check.ts';
import { parseCondition } from './grid-stats.ts';
import { predictionConfig, TLS_RTTS } from './real-browser.ts';

const close = (actual: number, expected: number, what: string): void =>
  assert.ok(Math.abs(actual - expected) < 1e-6, `${what}: expected ${expected}, got ${actual}`);

test('predictionConfig: the condition, TLS 1.3 on every connection, no preconnect in an incognito context, Linux RTO', () => {
  const c = parseCondition('5mbit/40ms/h1/1%');
  const contexts = predictionConfig(c, { congestionControl: 'newreno', freshBrowser: false }, 3);
  assert.deepEqual(contexts, { bandwidthBps: 5e6, rttMs: 40, lossRate: 0.01, protocol: 'h1', congestionControl: 'newreno', tlsRtts: TLS_RTTS, preconnect: false, linuxRto: true, seed: 3 });
  assert.equal(predictionConfig(c, { congestionControl: 'cubic', freshBrowser: true }, 1).preconnect, true);
});

test('an incognito context has no preconnected HTTP/1.1 socket: the second image waits for a connection', () => {
  // 10 Mbit/s, 40 ms: a one-segment document, then two one-segment images (each 1.2 ms on the bottleneck;
  // server -> bottleneck 10 ms, bottleneck -> client 10 ms, requests 20 ms). The document's connection:
  // TCP 40 + TLS 40 = 80, at the server 100, its segment departs 111.2 and reaches the client 121.2.
  // Incognito: image a reuses the document's connection (client at 121.2 + 20 + 10 + 1.2 + 10 = 162.4);
  // b's new connection would be ready at 201.2, but a's frees first (late binding, as Chromium's socket
  // pool): b leaves at 162.4 and arrives at 203.6 = load, having queued 41.2.
  // Fresh Chromium: the preconnected socket is ready since 80, so b arrives right behind a: 163.6.
  const MSS = 1448;
  const g = new PageBuilder()
    .resource('doc', 'https://a.com/', MSS, { serverDelay: 0, mimeType: 'text/html' })
    .resource('a', 'https://a.com/a.png', MSS, { serverDelay: 0 })
    .resource('b', 'https://a.com/b.png', MSS, { serverDelay: 0 })
    .edge('doc', 'a').edge('doc', 'b').edge('a', 'load').edge('b', 'load')
    .root('doc')
    .build();
  const c = parseCondition('10mbit/40ms/h1');
  const incognito = simulateChecked(g, predictionConfig(c, { congestionControl: 'newreno', freshBrowser: false }, 1));
  close(timingOf(incognito, 'doc').end, 121.2, 'document');
  close(timingOf(incognito, 'a').end, 162.4, 'a');
  close(timingOf(incognito, 'b').queued, 41.2, 'b waits for a connection');
  close(incognito.loadTime, 203.6, 'incognito load');
  const fresh = simulateChecked(g, predictionConfig(c, { congestionControl: 'newreno', freshBrowser: true }, 1));
  close(fresh.loadTime, 163.6, 'fresh-browser load');
});

test("--queue shaper: the shaper's link does not drop a first window that the thesis' RED queue drops", () => {
  // 1 Mbit/s, 8 ms: 1.5 BDP is 1,000 B, so the RED queue is floored at 4 packets, and a first window of 10
  // segments (one 14,480-byte response) overflows it. The shaper's queue holds them all: TCP 8 + TLS 8 = 16, at
  // the server 20, at the bottleneck 22, 10 packets of 1,500 B at 12 ms each leave by 142 and reach the
  // client 2 ms later: 144, no drop.
  const MSS = 1448;
  const g = new PageBuilder()
    .resource('doc', 'https://a.com/', 10 * MSS, { serverDelay: 0, mimeType: 'text/html' })
    .edge('doc', 'load')
    .root('doc')
    .build();
  const c = parseCondition('1mbit/8ms/h1');
  const shaper = predictionConfig(c, { congestionControl: 'newreno', freshBrowser: false, queue: 'shaper' }, 1);
  assert.equal(shaper.queue, 'droptail');
  assert.equal(shaper.minQueuePackets, 8192);
  const lossless = simulateChecked(g, shaper);
  assert.equal(lossless.drops, 0);
  close(timingOf(lossless, 'doc').end, 144, 'document over the shaper queue');
  const red = simulateChecked(g, predictionConfig(c, { congestionControl: 'newreno', freshBrowser: false }, 1));
  assert.ok(red.drops > 0, `the RED queue of 4 packets drops part of the window (${red.drops} drops)`);
  assert.ok(timingOf(red, 'doc').end > 144 + 100, `and a drop costs at least a round trip and more: ${timingOf(red, 'doc').end}`);
});
