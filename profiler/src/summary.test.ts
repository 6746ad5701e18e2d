/** meta's summaries on a hand-made log and trace, no Chromium. */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { summariseLog, summariseTrace, timerSummary } from './summary.ts';
import type { BundleMeta, DevtoolsLogEntry } from './bundle.ts';

const meta = (): BundleMeta => ({ counts: { requests: 0, failedRequests: 0, servedFromCache: 0, frames: 0, childTargets: 0 } } as BundleMeta);
const work = mkdtempSync(join(tmpdir(), 'pcp-summary-'));
after(() => rmSync(work, { recursive: true, force: true }));

test('log: requests, distinct failures per session, cache answers, the main document\'s response', () => {
  const log: DevtoolsLogEntry[] = [
    { method: 'Network.requestWillBeSent', params: { requestId: '1' } },
    { method: 'Network.requestWillBeSent', params: { requestId: '2' } },
    { method: 'Network.requestWillBeSent', params: { requestId: '2' }, sessionId: 'S' },
    { method: 'Network.responseReceived', params: { type: 'Document', frameId: 'F', response: { status: 404, mimeType: 'text/html', url: 'http://a.test/' } } },
    { method: 'Network.responseReceived', params: { type: 'Document', frameId: 'F', response: { status: 200, mimeType: 'text/html', url: 'http://a.test/2' } } },
    { method: 'Network.loadingFailed', params: { requestId: '2' } },
    { method: 'Network.loadingFailed', params: { requestId: '2' } },
    { method: 'Network.loadingFailed', params: { requestId: '2' }, sessionId: 'S' },
    { method: 'Network.requestServedFromCache', params: { requestId: '1' } },
  ];
  const m = meta();
  summariseLog(m, log, 'F');
  assert.deepEqual(m.counts, { requests: 3, failedRequests: 2, servedFromCache: 1, frames: 0, childTargets: 0 });
  assert.deepEqual(m.mainDocument, { status: 404, mimeType: 'text/html', url: 'http://a.test/' }, 'the first main-frame document');
});

test('timers: a fired single shot is done, a repeating one stays pending, a removed one is gone', () => {
  const t = (name: string, data: Record<string, unknown>) => ({ name, args: { data: { frame: 'F', ...data } } });
  const s = timerSummary([
    t('TimerInstall', { timerId: 1, timeout: 10, singleShot: true }),
    t('TimerInstall', { timerId: 2, timeout: 500, singleShot: false }),
    t('TimerInstall', { timerId: 3, timeout: 9000, singleShot: true }),
    t('TimerInstall', { timerId: 4, timeout: 20, singleShot: true }),
    t('TimerFire', { timerId: 1 }),
    t('TimerFire', { timerId: 2 }),
    t('TimerRemove', { timerId: 4 }),
    { name: 'ParseHTML', args: { data: {} } },
  ]);
  assert.deepEqual(s, { installed: 4, fired: 2, removed: 1, pendingAtEnd: [{ timerId: '2', timeout: 500, frame: 'F' }, { timerId: '3', timeout: 9000, frame: 'F' }] });
});

test("timers overdue at the end: a single shot due well before quiet ended the capture that ran after it, or not at all", () => {
  const t = (name: string, ts: number, data: Record<string, unknown>) => ({ name, ts, args: { data: { frame: 'F', ...data } } });
  // Capture ended at 10.000 s (trace clock, µs in events). Timer 1: due 9.030, fired 11.5 (after the end);
  // 2: due 9.030, never fired; 3: fired in time; 4: due 9.95 (50 ms before the end: merely queued);
  // 5: a repeating timer; 6: removed.
  const s = timerSummary([
    t('TimerFire', 11.5e6, { timerId: 1 }),
    t('TimerInstall', 9.0e6, { timerId: 1, timeout: 30, singleShot: true }),
    t('TimerInstall', 9.0e6, { timerId: 2, timeout: 30, singleShot: true }),
    t('TimerInstall', 9.0e6, { timerId: 3, timeout: 30, singleShot: true }),
    t('TimerFire', 9.04e6, { timerId: 3 }),
    t('TimerInstall', 9.9e6, { timerId: 4, timeout: 50, singleShot: true }),
    t('TimerInstall', 9.0e6, { timerId: 5, timeout: 30, singleShot: false }),
    t('TimerInstall', 9.0e6, { timerId: 6, timeout: 30, singleShot: true }),
    t('TimerRemove', 9.01e6, { timerId: 6 }),
  ], 10);
  assert.deepEqual(s.overdueAtEnd, [{ timerId: '1', timeout: 30, frame: 'F', lateMs: 970 }, { timerId: '2', timeout: 30, frame: 'F', lateMs: 970 }]);
  assert.equal(timerSummary([t('TimerInstall', 9.0e6, { timerId: 2, timeout: 30, singleShot: true })]).overdueAtEnd, undefined, 'no end instant: not judged');
});

test('trace read back: events, bytes and timers; an unreadable trace is a warning', () => {
  const file = join(work, 'trace.json.gz');
  writeFileSync(file, gzipSync(JSON.stringify({ traceEvents: [{ name: 'TimerInstall', args: { data: { timerId: 7, timeout: 5, singleShot: true } } }, { name: 'X' }] })));
  const m = meta();
  const warnings: string[] = [];
  summariseTrace(m, file, warnings);
  assert.equal(m.counts.traceEvents, 2);
  assert.ok(m.counts.traceBytes! > 0);
  assert.deepEqual(m.timers?.pendingAtEnd, [{ timerId: '7', timeout: 5, frame: undefined }]);
  writeFileSync(file, 'not gzip');
  summariseTrace(meta(), file, warnings);
  assert.equal(warnings.length, 1);
  assert.match(warnings[0]!, /^saved trace could not be read back: /);
});
