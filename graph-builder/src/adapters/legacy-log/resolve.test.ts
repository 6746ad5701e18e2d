import { test } from 'node:test';
import assert from 'node:assert/strict';
import { legacyLogToActivities } from './index.ts';
import { buildFromLegacyLog } from '../../build.ts';
import { validateGraph } from '../../format/validate.ts';
import { exportLegacy } from '../../format/legacy.ts';
import { SNIPPET_LINES } from '../../../test/snippet.ts';

const timer = (start: number) =>
  JSON.stringify({ Computation: { type: 'timer', code: '0xT', from: '0xe1', docUrl: 'http://t.test/', frame: '1', startTime: start, endTime: start + 0.01, urlRecalcStyle: '100', urls: [] } });
const hit = (from: string, at: number) =>
  JSON.stringify({ Cached: { id: 13, url: 'http://t.test/c.png', from, mimeType: '', len: 0, httpMethod: 'GET', accessTime: at, frame: '1' } });
const withLines = (...extra: string[]) => [...SNIPPET_LINES.slice(0, -1), ...extra, SNIPPET_LINES[SNIPPET_LINES.length - 1]!];

test('cache reuses: every run of a repeating timer that reuses an image is its own resource, with its own parent', () => {
  // setInterval: the same timer (code 0xT) fires at 100.5 and 100.7; each run shows c.png again (the
  // first run asks twice: one dependency).
  const lines = withLines(timer(100.5), hit('0xT', 100.502), hit('0xT', 100.504), timer(100.7), hit('0xT', 100.703));
  const warnings: string[] = [];
  const acts = legacyLogToActivities(lines, warnings);
  const reuses = acts.resources.filter((r) => r.url === 'http://t.test/c.png' && r.cached);
  assert.equal(reuses.length, 2);
  const runs = acts.computations.filter((c) => c.kind === 'Timer').map((c) => c.id);
  assert.deepEqual(reuses.map((r) => (r.issuedBy.kind === 'computation' ? r.issuedBy.id : 'none')), runs);
  for (const r of reuses) assert.equal(r.originalResource, 'download_3'); // the <img>'s network fetch

  const { graph } = buildFromLegacyLog(lines);
  assert.ok(validateGraph(graph).ok);
  const parents = reuses.map((r) => graph.edges.filter((e) => e.to === r.id).map((e) => e.from).filter((p) => !p.startsWith('download')));
  assert.equal(parents[0]!.length, 1);
  assert.equal(parents[1]!.length, 1);
  assert.notEqual(parents[0]![0]!.replace(/_\d+$/, ''), parents[1]![0]!.replace(/_\d+$/, ''));
  // The export names the reused fetch, as the reference graphs do.
  const exported = exportLegacy(graph).activities.filter((a) => a.type === 'resource' && a.cached);
  assert.deepEqual(exported.map((a) => a.originalResource), ['download_3', 'download_3']);
});

test('cache reuses: a network record flagged cached by the browser (HTTP cache) stays a network fetch', () => {
  const lines = SNIPPET_LINES.map((l) => (l.includes('"b.png"') || l.includes('/b.png"') ? l.replace('"cached":0', '"cached":1') : l));
  assert.ok(lines.some((l) => l.includes('"cached":1')));
  const acts = legacyLogToActivities(lines, []);
  const b = acts.resources.find((r) => r.url === 'http://t.test/b.png')!;
  assert.equal(b.cached, false);
  assert.ok(b.end > b.start);
});
