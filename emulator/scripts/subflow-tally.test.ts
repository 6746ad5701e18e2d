import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PageBuilder } from '@pcp/graph-builder/testing';
import type { EmulatorConfig } from '../src/index.ts';
import { MptcpConnection } from '../src/mptcp/connection.ts';
import { subflowTally } from './subflow-tally.ts';

const MSS = 1448;
const base: EmulatorConfig = { bandwidthBps: 10e6, rttMs: 40, protocol: 'h2', icwnd: 10, queue: 'droptail' };
const page = (segments: number, serverDelay: number) =>
  new PageBuilder().resource('r', 'http://a.com/x', segments * MSS, { serverDelay }).edge('r', 'load').build();

test('equal paths (src/mptcp/connection.test.ts): 60 segments striped 30 / 30, the second path only when the first is full', () => {
  const { result, tally } = subflowTally(page(60, 100), { ...base, path2: { bandwidthBps: 10e6, rttMs: 40 } });
  assert.deepEqual(tally, { connections: 1, usingPath2: 1, bytes: [30 * MSS, 30 * MSS], path2WhileRoom: 0 });
  assert.equal(result.multipath!.bytesPath2, 30 * MSS);
});

test('worst path first: the joined 40 ms path has the lower RTT, so it takes its window while the 200 ms one has room', () => {
  // Request at the server at 300, response (20 segments) ready at 500; the 40 ms subflow is up at 2 x 200 + 1.5 x 40
  // = 460. Offered lowest RTT first, it sends its window of 10 while the first subflow's window is empty; the first
  // then takes the other 10.
  const { tally } = subflowTally(page(20, 200), { ...base, rttMs: 200, path2: { bandwidthBps: 10e6, rttMs: 40 } });
  assert.deepEqual(tally, { connections: 1, usingPath2: 1, bytes: [10 * MSS, 10 * MSS], path2WhileRoom: 10 * MSS });
});

test('a single-path run tallies nothing and the wrapper is removed', () => {
  const take = MptcpConnection.prototype.take;
  const { tally } = subflowTally(page(10, 0), base);
  assert.equal(MptcpConnection.prototype.take, take);
  assert.deepEqual(tally, { connections: 0, usingPath2: 0, bytes: [0, 0], path2WhileRoom: 0 });
});
