import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { buildFromLegacyLog, buildFromLegacyLogStream, LegacyLogError } from './build.ts';
import { readLegacyLogFile, streamLegacyLogLines } from './adapters/legacy-log/file.ts';
import { validateGraph } from './format/validate.ts';
import { exportLegacy, type LegacyGraph } from './format/legacy.ts';
import { compareLegacy } from '../scripts/legacy-match.ts';
import { SNIPPET_LINES } from '../test/snippet.ts';

const FIXTURE = new URL('../test/fixtures/friv.log.gz', import.meta.url).pathname;
const REFERENCE = new URL('../test/fixtures/friv.reference.json.gz', import.meta.url).pathname;
const friv = readLegacyLogFile(FIXTURE).text;

test('build: a real site (friv.com, 2016) gives a schema-valid graph with priorities and a critical path', () => {
  const { graph, warnings } = buildFromLegacyLog(friv);
  assert.deepEqual(warnings, []);
  const v = validateGraph(graph);
  assert.ok(v.ok, v.errors.join('\n'));
  // The log holds 6 network fetches and 2 memory-cache hits of a frameset page with two frames.
  assert.equal(graph.nodes.filter((n) => n.kind === 'resource').length, 8);
  assert.equal(graph.frames.length, 3);
  assert.equal(graph.frames.filter((f) => f.parent === null).length, 1);
  assert.equal(graph.root, 'download_0');
  assert.ok(graph.criticalPath && graph.criticalPath.nodes[0] === 'download_0' && graph.criticalPath.length > 0);
  // The 1.17 MB flash movie (2.23 s of download) dominates the page: it is on the critical path.
  const swf = graph.nodes.find((n) => n.kind === 'resource' && n.url.endsWith('menuU.swf?browserlang=en-GB&invtype=normal'));
  assert.ok(swf && swf.kind === 'resource' && swf.onCriticalPath);
});

test('build: streaming the gzip file line by line gives the same graph as the text', async () => {
  const streamed = await buildFromLegacyLogStream(streamLegacyLogLines(FIXTURE, []));
  assert.deepEqual(streamed.graph, buildFromLegacyLog(friv).graph);
});

test('build: agrees with the original builder on friv.com (every resource parent; >= 0.9 of edges)', () => {
  const { graph } = buildFromLegacyLog(friv);
  const ref = JSON.parse(gunzipSync(readFileSync(REFERENCE)).toString('utf8')) as LegacyGraph;
  const f = compareLegacy(exportLegacy(graph), ref);
  assert.equal(f.resourceJaccard, 1);
  assert.equal(f.parentsEqual, f.parentsTotal);
  assert.ok(f.edgesCommon / f.edgesRef >= 0.9, `recall ${f.edgesCommon}/${f.edgesRef}`);
  assert.ok(f.edgesCommon / f.edgesMine >= 0.9, `precision ${f.edgesCommon}/${f.edgesMine}`);
});

test('build: normalisation trims long timers, disables post-load ones and marks phases', () => {
  const lines = [
    ...SNIPPET_LINES.slice(0, -1),
    // a.js registers a 5 s timer firing at 101.0 s (after load at 100.9), which requests d.png.
    JSON.stringify({ Computation: { type: 'timer', code: '0xt1', from: '0xe1', docUrl: 'http://t.test/', frame: '1', startTime: 101.0, endTime: 101.01, urlRecalcStyle: '5000', urls: [] } }),
    // d.png takes 2 s: the longest chain of the recorded load runs through the timer.
    JSON.stringify({ Resource: { id: 14, url: 'http://t.test/d.png', frame: '1', sentTime: 101.005, recieveTime: 103.005, len: 10, from: '0xt1', mimeType: 'image/png', httpStatus: 200, httpMethod: 'GET', cached: 0 } }),
    SNIPPET_LINES[SNIPPET_LINES.length - 1]!,
  ];
  const { graph } = buildFromLegacyLog(lines);
  const timer = graph.nodes.find((n) => n.kind === 'timer');
  assert.ok(timer && timer.kind === 'timer');
  assert.equal(timer.timerDelay, 1000);
  assert.equal(timer.extra?.originalDelay, 5000);
  assert.equal(timer.disabled, true);
  assert.equal(timer.phase, 'post-load');
  assert.equal(graph.nodes.find((n) => n.id === 'pchunk_0_0')?.phase, 'pre-dom');
  assert.ok(graph.edges.some((e) => e.to === timer.id && e.rule === 19)); // registered by the script (rule 19)
  // Priorities and the critical path cover the recorded load by default (as the original builder):
  // the path ends with the timer and its 2 s image; on the normalised load the disabled timer cuts it off.
  assert.deepEqual(graph.criticalPath?.nodes.slice(-2), [timer.id, 'download_4']);
  const normalised = buildFromLegacyLog(lines, { analysisScope: 'normalised' }).graph;
  assert.ok(!normalised.criticalPath?.nodes.includes(timer.id));
  assert.ok(!normalised.criticalPath?.nodes.includes('download_4'));
});

test('build: bad lines become warnings naming the line; strict mode makes them errors', () => {
  const lines = [...SNIPPET_LINES];
  lines.splice(5, 0, '{"ReceivedChunk": {"resourceId": 10, "len": 3}}', 'garbage');
  const { graph, warnings } = buildFromLegacyLog(lines);
  assert.ok(validateGraph(graph).ok);
  assert.match(warnings[0]!, /^line 6: ReceivedChunk record lacks field 'receivedTime'; record skipped$/);
  assert.match(warnings[1]!, /^line 7: not valid JSON/);
  assert.throws(() => buildFromLegacyLog(lines, { strict: true }), (e: unknown) => e instanceof LegacyLogError && e.message.startsWith('line 6: '));
});

/** Mutations of a real log: drop, duplicate or swap lines, cut a line, flip a character, change a value. */
const mutation = fc.oneof(
  fc.record({ op: fc.constant('drop' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('dup' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('swap' as const), at: fc.nat(), to: fc.nat() }),
  fc.record({ op: fc.constant('cut' as const), at: fc.nat(), keep: fc.double({ min: 0, max: 1, noNaN: true }) }),
  fc.record({ op: fc.constant('flip' as const), at: fc.nat(), pos: fc.nat(), ch: fc.constantFrom('"', '{', '}', ',', '0', 'x', ' ', ']') }),
  fc.record({ op: fc.constant('value' as const), at: fc.nat(), v: fc.constantFrom('"(nil)"', '-1', '1e308', '"0x1"', 'null', '[]', '""') }),
);

function mutate(lines: string[], ms: ReadonlyArray<Record<string, unknown>>): string[] {
  const out = [...lines];
  for (const m of ms) {
    if (out.length === 0) break;
    const i = (m.at as number) % out.length;
    switch (m.op) {
      case 'drop': out.splice(i, 1); break;
      case 'dup': out.splice(i, 0, out[i]!); break;
      case 'swap': { const j = (m.to as number) % out.length; [out[i], out[j]] = [out[j]!, out[i]!]; break; }
      case 'cut': out[i] = out[i]!.slice(0, Math.floor(out[i]!.length * (m.keep as number))); break;
      case 'flip': { const s = out[i]!; const p = (m.pos as number) % Math.max(1, s.length); out[i] = s.slice(0, p) + (m.ch as string) + s.slice(p + 1); break; }
      case 'value': out[i] = out[i]!.replace(/(": )("[^"]*"|-?[\d.]+)/, `$1${m.v as string}`); break;
    }
  }
  return out;
}

test('property: mutated real logs always give a valid graph (with warnings) or a clear LegacyLogError', () => {
  const base = friv.split('\n').filter(Boolean);
  fc.assert(
    fc.property(fc.array(mutation, { minLength: 1, maxLength: 12 }), (ms) => {
      let result;
      try {
        result = buildFromLegacyLog(mutate(base, ms));
      } catch (e) {
        assert.ok(e instanceof LegacyLogError, `unexpected ${(e as Error).stack}`);
        return;
      }
      const v = validateGraph(result.graph);
      assert.ok(v.ok, v.errors.join('; '));
    }),
    { numRuns: 150, seed: 20161121 },
  );
});

test('build: a loop in the log (two timers registering each other) is broken with a warning naming the lines', () => {
  // Timer 0xT1 (100.5 s) names 0xT2 as its registrar and 0xT2 (100.6 s) names 0xT1: address reuse can
  // produce this. T1 requests e.png (splitting it in two parts) and is kept; T2 is not (its only child
  // is T1, settled after it), so T1's registrar resolves through T2 back to T1's own last part: rule 21
  // links comp_1_1 -> comp_1_0 while the split links comp_1_0 -> comp_1_1.
  const timer = (code: string, from: string, start: number) =>
    JSON.stringify({ Computation: { type: 'timer', code, from, docUrl: 'http://t.test/', frame: '1', startTime: start, endTime: start + 0.01, urlRecalcStyle: '0', urls: [] } });
  const lines = [
    ...SNIPPET_LINES.slice(0, -1),
    timer('0xT1', '0xT2', 100.5), // line 17
    timer('0xT2', '0xT1', 100.6), // line 18
    JSON.stringify({ Resource: { id: 15, url: 'http://t.test/e.png', frame: '1', sentTime: 100.505, recieveTime: 100.6, len: 10, from: '0xT1', mimeType: 'image/png', httpStatus: 200, httpMethod: 'GET', cached: 0 } }),
    SNIPPET_LINES[SNIPPET_LINES.length - 1]!,
  ];
  const { graph, warnings } = buildFromLegacyLog(lines);
  assert.ok(validateGraph(graph).ok);
  const cycle = warnings.find((w) => w.startsWith('cycle '));
  assert.ok(cycle, warnings.join('\n'));
  assert.equal(cycle, 'cycle comp_1_0 (timer, line 17) -> comp_1_1 (timer, line 17) -> comp_1_0 (timer, line 17): broken by removing edge comp_1_1 -> comp_1_0 (rule 21)');
});
