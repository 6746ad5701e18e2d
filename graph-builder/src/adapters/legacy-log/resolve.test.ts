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

test('preload scanner: a fetch without requester belongs to the token the scanner named for its url', () => {
  // The scanner meets <img src=p.gif> (token 0xp, parsed by the parser only at 100.415) at 100.2 and
  // fetches p.gif at 100.2001; the network record names no requester (www.ndtv.com, log lines 7938/942).
  const token = JSON.stringify({ ObjectHash: { code: '0xp', comp: '(nil)', doc: 'http://t.test/', frame: '1', row: 2, column: 40, tagName: 'img', startTime: 100.415, endTime: 100.416, urls: ['http://t.test/p.gif'], pos: 200, isStartTag: 1, isFragment: 0 } });
  const fetch = JSON.stringify({ Resource: { id: 14, url: 'http://t.test/p.gif', frame: '1', sentTime: 100.2001, recieveTime: 100.3, len: 43, from: '(nil)', mimeType: 'image/gif', contentLength: -1, httpStatus: 200, httpMethod: 'GET', connId: 0, connReused: 0, cached: 0 } });
  const scan = (code: string) => JSON.stringify({ Preload: { code, scriptCode: '0xs', docUrl: 'http://t.test/', url: 'http://t.test/p.gif', tag: 'img', row: 2, column: 40, time: 100.2 } });
  const pgif = (lines: string[]) => legacyLogToActivities(lines, []).resources.find((r) => r.url === 'http://t.test/p.gif')!;

  const acts = legacyLogToActivities(withLines(fetch, token, scan('0xp')), []);
  const p = acts.resources.find((r) => r.url === 'http://t.test/p.gif')!;
  assert.equal(p.issuedBy.kind, 'token');
  const doc = acts.documents.find((d) => d.url === 'http://t.test/')!;
  assert.equal(p.issuedBy.kind === 'token' ? doc.tokens[p.issuedBy.token]!.column : -1, 40);
  const { graph } = buildFromLegacyLog(withLines(fetch, token, scan('0xp')));
  const parent = graph.edges.filter((e) => e.to === p.id).map((e) => graph.nodes.find((n) => n.id === e.from)!);
  assert.deepEqual(parent.map((n) => [n.kind, n.kind === 'parse_chunk' ? n.startLine : 0]), [['parse_chunk', 3]]);
  // No scanner record, or one without a token (the scanner's own `(nil)`), or a token never parsed: no requester.
  assert.equal(pgif(withLines(fetch, token)).issuedBy.kind, 'none');
  assert.equal(pgif(withLines(fetch, token, scan('(nil)'))).issuedBy.kind, 'none');
  assert.equal(pgif(withLines(fetch, scan('0xp'))).issuedBy.kind, 'none');
});

test('document.write: a written <script src> the parser waited for blocks it like a declared one', () => {
  // a.js (0xe1, 100.31-100.39) writes <script src=w.js> (token 0xw, comp 0xe1, at 100.32); w.js is
  // fetched at 100.321 and runs at 100.392-100.398, after a.js returns; the network parser goes on with
  // the <img> token at 100.4, after w.js ended (www.ndtv.com, log lines 5140, 6499, 5185).
  const written = JSON.stringify({ ObjectHash: { code: '0xw', comp: '0xe1', doc: 'http://t.test/', frame: '1', row: 1, column: 60, tagName: 'script', startTime: 100.32, endTime: 100.3201, urls: ['http://t.test/w.js'], pos: 60, isStartTag: 1, isFragment: 0 } });
  const fetch = JSON.stringify({ Resource: { id: 15, url: 'http://t.test/w.js', frame: '1', sentTime: 100.321, recieveTime: 100.391, len: 90, from: '0xw', mimeType: 'application/javascript', contentLength: -1, httpStatus: 200, httpMethod: 'GET', connId: 0, connReused: 0, cached: 0 } });
  const run = (start: number) => JSON.stringify({ Computation: { type: 'execScript', code: '0xe2', from: '0xw', docUrl: 'http://t.test/', frame: '1', startTime: start, endTime: start + 0.006, urlRecalcStyle: 'http://t.test/w.js', urls: [] } });
  const edgesOf = (lines: string[]) => {
    const { graph } = buildFromLegacyLog(lines);
    assert.ok(validateGraph(graph).ok);
    const w = graph.nodes.find((n) => n.kind === 'script_eval' && n.scriptUrl === 'http://t.test/w.js')!;
    return { w, into: graph.edges.filter((e) => e.to === w.id).map((e) => `${e.from}:${e.rule}`).sort(), out: graph.edges.filter((e) => e.from === w.id).map((e) => `${e.to}:${e.rule}`) };
  };
  // Network fetches by send time: the page, a.js, w.js (download_2), b.png, c.png. Blocking: after the
  // chunk the parser stood at (tokens 0-2, rule 12) and its download (rule 10); the
  // next chunk (the <img>) waits for it (rule 4).
  const blocking = edgesOf(withLines(written, fetch, run(100.392)));
  assert.equal(blocking.w.kind === 'script_eval' && blocking.w.scriptKind, 'write');
  assert.deepEqual(blocking.into, ['download_2:10', 'pchunk_0_0:12']);
  assert.deepEqual(blocking.out, ['pchunk_0_1:4']);
  // The parser went on (the <img> at 100.4) before it ran: async, its download its only parent.
  const async = edgesOf(withLines(written, fetch, run(100.41)));
  assert.equal(async.w.kind === 'script_eval' && async.w.scriptKind, 'async');
  assert.deepEqual(async.into, ['download_2:10']);
  assert.deepEqual(async.out, []);
});
