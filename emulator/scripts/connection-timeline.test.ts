import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PageBuilder } from '@pcp/graph-builder/testing';
import type { EmulatorConfig } from '../src/index.ts';
import { TcpConnection } from '../src/network/tcp.ts';
import { connectionTimeline, formatEvent } from './connection-timeline.ts';

// The page and arithmetic of src/lossy.test.ts: 10 segments leave at 60, segment k (1-based, seq k - 1)
// reaches the client at 80 + 1.2k, its ACK the server at 100 + 1.2k; downlink #k + 1 is segment k.
const MSS = 1448;
const page = new PageBuilder().resource('r', 'http://a.com/x', 10 * MSS, { serverDelay: 0 }).edge('r', 'load').build();
const lose = (down: number[]): EmulatorConfig => ({
  bandwidthBps: 10e6, rttMs: 40, protocol: 'h1', icwnd: 10, queue: 'droptail',
  lossModel: { kind: 'list', packets: down }, uplinkLossModel: { kind: 'list', packets: [] },
});
const r1 = (x: number): number => Math.round(x * 10) / 10;

test('a loss mid-window: the drop, the fast retransmit at the next ACK with the halved window, no timeout', () => {
  const ev = connectionTimeline(page, lose([6]));
  const sends = ev.filter((e) => e.what === 'send');
  assert.equal(sends.length, 10);
  assert.deepEqual(sends.filter((e) => e.dropped).map((e) => [e.t, e.n]), [[60, 4]]);
  // ACKs at 101.2-104.8 grow the window 10 -> 14; 6's at 106.0 reveals the hole: recovery halves it to 7.
  const resend = ev.find((e) => e.what === 'resend')!;
  assert.deepEqual([r1(resend.t), resend.n, resend.dropped, resend.cwnd], [106, 4, false, 7]);
  assert.equal(ev.filter((e) => e.what === 'timeout').length, 0);
  assert.equal(ev.filter((e) => e.what === 'ack').length, 10);
  assert.match(formatEvent(resend), /^ +106\.0 {2}c0 {2}resend 4 +cwnd +7\.00 {2}RTO 200 x1$/);
});

test('a lost tail: the timeout 200 ms after the last ACK, the resend with cwnd 1 and the backoff doubled', () => {
  const ev = connectionTimeline(page, lose([11]));
  const timeout = ev.find((e) => e.what === 'timeout')!;
  assert.equal(r1(timeout.t), 310.8); // segment 9's ACK at 110.8 + 200
  const resend = ev.find((e) => e.what === 'resend')!;
  assert.deepEqual([r1(resend.t), resend.n, resend.cwnd, resend.backoff], [310.8, 9, 1, 2]);
});

test('no loss: 10 sends and 10 ACKs; the wrapped methods are restored afterwards', () => {
  const proto = TcpConnection.prototype as unknown as Record<string, unknown>;
  const before = ['transmit', 'onAck', 'onRto'].map((k) => proto[k]);
  assert.equal(connectionTimeline(page, lose([])).length, 20);
  assert.deepEqual(['transmit', 'onAck', 'onRto'].map((k) => proto[k]), before);
});
