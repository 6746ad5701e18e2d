/**
 * Fuzzing the legacy builder with the values real logs carry, not only random mutations (issue 13): a
 * real log (www.ups.com, 2016: timers, events, cache reuses, frames) whose fields are redrawn from the
 * distributions seen over the 64 corpus logs, odd values included, plus the odd values seen on logs we do
 * not have (negative timer delays). Every draw must build into a valid v1 graph that loses no resource.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { buildFromLegacyLog } from './build.ts';
import { readText } from './format/io.ts';
import { validateGraph } from './format/validate.ts';
import { legacySites } from './legacy-corpus.ts';

type Rec = Record<string, unknown>;

/**
 * Per record kind and field, values as they occur in the corpus (measured over its 64 logs: typical ones
 * and the extremes, e.g. columns down to -70213 in document.write fragments, computations ending 17212 s
 * before they start, receive time 0 for fetches that never completed, start time 0 for tokens whose start
 * was not recorded), and a few that real logs elsewhere carried (negative timer delays, negative rows).
 * A function draws relative to the record (times near its own).
 */
type Draw = number | string | ((r: Rec) => unknown);
const REAL: Record<string, Record<string, Draw[]>> = {
  Resource: {
    len: [0, 1, 1329, 183993, 2818776, -1],
    recieveTime: [0, (r) => (r.sentTime as number) + 0.00066, (r) => (r.sentTime as number) + 0.4, (r) => (r.sentTime as number) + 18.24, (r) => (r.sentTime as number) - 0.01],
    httpStatus: [0, 200, 204, 304, 404, 503],
    mimeType: ['text/html', 'text/css', 'application/javascript', 'image/png', 'video/webm', 'application/octet-stream', '', 'application/x-never-seen'],
    cached: [0, 1],
  },
  ObjectHash: {
    row: [0, 1, 37, 9801, -1],
    column: [-70213, -1, 0, 1, 65, 448065],
    pos: [3, 250, 933776, -1],
    startTime: [0, (r) => r.endTime as number, (r) => (r.endTime as number) - 0.106],
    endTime: [(r) => r.startTime as number, (r) => (r.startTime as number) + 0.106],
  },
  Computation: {
    endTime: [(r) => r.startTime as number, (r) => (r.startTime as number) + 0.00001, (r) => (r.startTime as number) + 12.83, (r) => (r.startTime as number) - 17212.9],
    urlRecalcStyle: ['0', '4', '100', '1000', '50000', '-1', '-5000', 'not-a-number'],
  },
  Cached: {
    len: [0, 1329, 970786],
    mimeType: ['', 'image/png', 'font/woff', 'image/svg+xml'],
    accessTime: [(r) => r.accessTime as number, (r) => (r.accessTime as number) - 5, (r) => (r.accessTime as number) + 30],
  },
  Frame: { loadTime: [0, (r) => r.loadTime as number] },
  ReceivedChunk: { len: [1, 1460, 324474] },
};

const site = legacySites().find((s) => s.slug === 'www.ups.com')!;
const base = readText(site.raw).split('\n').filter(Boolean).map((l) => JSON.parse(l) as Rec);
const editable = base.map((r, i) => [i, Object.keys(r)[0]!] as const).filter(([, k]) => REAL[k]);

const edit = fc.record({ at: fc.nat({ max: editable.length - 1 }), field: fc.nat(), value: fc.nat() });

function apply(edits: ReadonlyArray<{ at: number; field: number; value: number }>): { lines: string[]; resourceIds: Set<number> } {
  const recs = base.map((r) => structuredClone(r));
  for (const e of edits) {
    const [i, kind] = editable[e.at]!;
    const rec = recs[i]![kind] as Rec;
    const fields = Object.keys(REAL[kind]!).filter((f) => f in rec);
    if (!fields.length) continue;
    const f = fields[e.field % fields.length]!;
    const choices = REAL[kind]![f]!;
    const d = choices[e.value % choices.length]!;
    rec[f] = typeof d === 'function' ? d(rec) : d;
  }
  const resourceIds = new Set(recs.filter((r) => r.Resource).map((r) => (r.Resource as Rec).id as number));
  return { lines: recs.map((r) => JSON.stringify(r)), resourceIds };
}

test('fuzz: a real log with fields redrawn from real value distributions always builds a valid graph, losing no fetch', () => {
  fc.assert(
    fc.property(fc.array(edit, { minLength: 1, maxLength: 40 }), (edits) => {
      const { lines, resourceIds } = apply(edits);
      const { graph } = buildFromLegacyLog(lines);
      const v = validateGraph(graph);
      assert.ok(v.ok, v.errors.join('; '));
      const network = graph.nodes.filter((n) => n.kind === 'resource' && !n.cached).length;
      assert.equal(network, resourceIds.size);
    }),
    { numRuns: 120, seed: 20161122 },
  );
});

test('fuzz: a negative timer delay builds, warns with the line and keeps the source value', () => {
  const at = base.findIndex((r) => (r.Computation as Rec | undefined)?.type === 'timer');
  assert.ok(at >= 0);
  const recs = base.map((r) => structuredClone(r));
  (recs[at]!.Computation as Rec).urlRecalcStyle = '-250';
  const { graph, warnings } = buildFromLegacyLog(recs.map((r) => JSON.stringify(r)));
  assert.ok(validateGraph(graph).ok);
  const w = warnings.find((x) => x.includes('timer delay'));
  assert.match(w ?? '', new RegExp(`^1 odd timer delay\\(s\\) adjusted to fit graph format v1 \\(first at line ${at + 1}: -250 ms`));
  // The timer is kept only when its chain downloads something; when it is, it carries the source value.
  for (const n of graph.nodes) if (n.kind === 'timer' && n.extra?.originalDelay !== undefined && (n.extra.originalDelay as number) < 0) assert.equal(n.timerDelay, 0);
});
