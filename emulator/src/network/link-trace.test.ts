import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../config.ts';
import { loadTrace, parseTrace, TraceServer, traceFromTimes } from './link-trace.ts';

/** Every directory a test makes lies in here, removed when the file's tests end. */
const scratch = mkdtempSync(join(tmpdir(), 'pcp-trace-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

test('parseTrace: ms timestamps, repeated ones are several opportunities; mean rate; clear errors', () => {
  const t = parseTrace('5\n5\n10\n');
  assert.deepEqual([...t.times], [5, 5, 10]);
  assert.equal(t.periodMs, 10);
  assert.equal(t.meanBps, (3 * 1500 * 8) / 0.01); // 3 packets per 10 ms = 3.6 Mbit/s
  assert.throws(() => parseTrace('5\nx\n'), /inline:2: not a millisecond timestamp/);
  assert.throws(() => parseTrace('5\n3\n'), /must not decrease/);
  assert.throws(() => parseTrace('\n'), /empty/);
  assert.throws(() => parseTrace('0\n'), /period/);
});

test('loadTrace: a missing file is a one-line ConfigError', () => {
  assert.throws(() => loadTrace('/nonexistent/trace.down'), (e: Error) => e instanceof ConfigError && /cannot read link trace '\/nonexistent\/trace.down': ENOENT/.test(e.message));
  const dir = mkdtempSync(join(scratch, 'd-'));
  writeFileSync(join(dir, 'a.trace'), '1\n');
  assert.equal(loadTrace(join(dir, 'a.trace')).periodMs, 1);
});

test('TraceServer: opportunities at or after arrival, bytes shared within one, unused ones wasted, looping', () => {
  // Opportunities at 5, 5, 10, then 15, 15, 20, ... (period 10).
  const s = new TraceServer(traceFromTimes([5, 5, 10]));
  assert.equal(s.serve(0, 1500), 5); // first opportunity at 5
  assert.equal(s.serve(0, 500), 5); // second opportunity at 5, 1000 bytes left in it
  assert.equal(s.serve(1, 1000), 5); // fits the rest of it
  assert.equal(s.serve(2, 1500), 10);
  assert.equal(s.serve(11, 1500), 15); // idle until 11: the queue was empty, the next opportunity is 15
  assert.equal(s.serve(11, 3000), 20); // 15 (second) + 20: a packet bigger than an opportunity spans two
  assert.equal(s.serve(40, 1500), 40); // period 4 (35, 35, 40): the one at 40
  assert.equal(s.serve(41, 1500), 45);
  const exact = new TraceServer(traceFromTimes([1]));
  assert.equal(exact.serve(70, 1500), 70, 'an opportunity exactly at the arrival time is usable');
});
