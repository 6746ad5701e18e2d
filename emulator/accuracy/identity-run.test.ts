import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PageBuilder } from '@pcp/graph-builder/testing';
import { simulate } from '../src/simulator.ts';
import { emulateIdentity, LOOPBACK } from './identity-run.ts';

test('emulateIdentity: recorded and emulated times on one clock, from navigation start', () => {
  const g = new PageBuilder().resource('r', 'http://a.com/x', 1448, { serverDelay: 5 }).edge('r', 'load').edge('r', 'dcl').build();
  // Navigation start 40 ms before the graph's time 0; the document's request went out at -38 (so the
  // emulation's time 0 is 2 ms after navigation start); the browser marked DCL at 20 and load at 60.
  const graph = { ...g, navigation: { navigationStartOffset: 40, documentRequest: -38, domContentLoaded: 20, load: 60 } };
  const r = emulateIdentity(graph);
  assert.ok(typeof r !== 'string');
  const sim = simulate(graph, LOOPBACK);
  assert.equal(r.recordedLoad, 100);
  assert.equal(r.recordedDcl, 60);
  assert.ok(Math.abs(r.emulatedLoad - (2 + sim.loadTime)) < 1e-9);
  assert.ok(Math.abs(r.emulatedDcl - (2 + sim.domContentLoadedTime)) < 1e-9);
  // Loopback: one 0.1 ms handshake, 0.05 ms request, 5 ms server delay, and the segment's trip back.
  assert.ok(sim.loadTime > 5.15 && sim.loadTime < 6, `load ${sim.loadTime}`);
  assert.match(String(emulateIdentity(g)), /records no navigation/);
  assert.match(String(emulateIdentity({ ...g, navigation: { navigationStartOffset: 3 } })), /no load or DOMContentLoaded mark/);
});

test('LOOPBACK: six connections\' first windows at once lose nothing (loopback drops no packet a page sends)', () => {
  const b = new PageBuilder();
  for (let i = 0; i < 6; i++) b.resource(`r${i}`, `https://h${i}.com/x`, 60_000, { serverDelay: 1 }).edge(`r${i}`, 'load');
  const g = b.build();
  for (const protocol of ['h1', 'h2'] as const) {
    // 6 x 60 KB over 1 Gbit/s is ~2.9 ms of transfer: with a handshake, a request and 1 ms of server delay, under 10 ms.
    const loopback = simulate(g, { ...LOOPBACK, protocol }).loadTime;
    assert.ok(loopback > 3 && loopback < 10, `${protocol}: load ${loopback}`);
    // The thesis' RED queue of 1.5 BDP (13 packets here) overflows and a loss waits for the 200 ms minimum RTO.
    const thesisQueue = simulate(g, { bandwidthBps: 1e9, rttMs: 0.1, protocol }).loadTime;
    assert.ok(thesisQueue > 200, `${protocol}: load ${thesisQueue} with the thesis' queue`);
  }
});
