import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PageBuilder } from '@pcp/graph-builder/testing';
import { resolveConfig } from '../src/config.ts';
import { hanConfig, LTE, pageHosts, WIFI } from './han-wifi-lte-setup.ts';

const TRACE = new URL('../traces/cellular-variable.trace', import.meta.url).pathname;

test("Han's testbed: WiFi is path 1 with the extra loss, LTE path 2 (traced or constant), none of WiFi's loss on LTE", () => {
  const sp = resolveConfig(hanConfig('h1', 0.01, 'none', TRACE, 2));
  assert.deepEqual([sp.bandwidthBps, sp.rttMs, sp.protocol, sp.seed, sp.path2], [WIFI.bandwidthBps, WIFI.rttMs, 'h1', 2, null]);
  assert.deepEqual(sp.loss, { kind: 'bernoulli', p: 0.01 });
  const mp = resolveConfig(hanConfig('h2', 0.01, 'trace', TRACE, 1));
  assert.equal(mp.path2!.rttMs, LTE.rttMs);
  assert.equal(mp.path2!.loss, undefined);
  assert.ok(Math.abs(mp.path2!.downlinkTrace!.meanBps - 7.18e6) < 0.01e6, 'cellular-variable: 7.18 Mbit/s mean');
  const c = resolveConfig(hanConfig('h2', 0, 'constant', TRACE, 1));
  assert.deepEqual([c.path2!.bandwidthBps, c.path2!.downlinkTrace, c.loss], [LTE.bandwidthBps, undefined, undefined]);
});

test("Han's proxies: SPDY is one TLS connection for all the page's hosts, HTTP keeps per-origin pools; Linux hosts", () => {
  const g = new PageBuilder()
    .resource('doc', 'http://www.a.com/', 1000, { serverDelay: 0 })
    .resource('img', 'http://img.b.com/x.png', 1000, { serverDelay: 0 })
    .resource('css', 'https://www.a.com/s.css', 1000, { serverDelay: 0 })
    .edge('doc', 'img').edge('doc', 'css').edge('img', 'load').edge('css', 'load').build();
  const hosts = pageHosts(g);
  assert.deepEqual(hosts, ['www.a.com', 'img.b.com']);
  const spdy = resolveConfig(hanConfig('h2', 0, 'constant', TRACE, 1, 'testbed', hosts));
  assert.deepEqual([spdy.unshard, spdy.tlsRtts, spdy.lossDetection, spdy.linuxIdleRestart, spdy.linuxRto], [hosts, 1, 'sack', true, true]);
  const http = resolveConfig(hanConfig('h1', 0, 'constant', TRACE, 1, 'testbed', hosts));
  assert.deepEqual([http.unshard, http.tlsRtts, http.connectionsPerHost, http.lossDetection, http.linuxIdleRestart, http.linuxRto], [[], 0, 6, 'sack', true, true]);
  const direct = resolveConfig(hanConfig('h2', 0, 'constant', TRACE, 1, 'direct', hosts));
  assert.deepEqual([direct.unshard, direct.tlsRtts, direct.lossDetection, direct.linuxIdleRestart, direct.linuxRto], [[], 0, 'nack', false, false]);
});
