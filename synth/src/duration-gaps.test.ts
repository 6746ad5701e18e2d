import { test } from 'node:test';
import assert from 'node:assert/strict';
import { durationClass, durationTotals, pathDurationGaps } from './duration-gaps.ts';
import { matchGraphs } from './compare.ts';
import { graphOf, res } from './testing.ts';

const PAGE = 'http://www.pcp.test/';
const JS = 'http://www.pcp.test/a.js';

/** doc -> chunk -> a.js -> its run; the run lasting `runMs`, the download `dlMs` (with `browser` ms of the browser's own waits). */
function page(runMs: number, dlMs: number, browser?: number) {
  return graphOf(PAGE, [
    res('doc', PAGE, 'text/html', 500, { start: 0, end: 100 }),
    { id: 'p0', kind: 'parse_chunk', docUrl: PAGE, startLine: 1, startColumn: 16, endLine: 1, endColumn: 40, start: 100, end: 102 },
    res('js', JS, 'application/javascript', 900, { start: 102, end: 102 + dlMs, ...(browser === undefined ? {} : { browserDelay: { release: browser, request: 1 } }) }),
    { id: 's', kind: 'script_eval', scriptUrl: JS, scriptKind: 'sync', start: 102 + dlMs, end: 102 + dlMs + runMs },
  ], [['doc', 'p0', 'resource-chunk'], ['p0', 'js', 1], ['js', 's', 10], ['s', 'load', 25]]);
}

test('each node of the source path with what its key lasts on both sides, classed', () => {
  const source = page(50, 200);
  const { recorded, sk, bk } = matchGraphs(source, page(80, 300, 90));
  const gaps = pathDurationGaps(recorded, sk, bk);
  const js = gaps.find((g) => g.cls === 'download: script')!;
  assert.deepEqual([js.source, js.built, js.browser], [200, 300, 91]);
  const run = gaps.find((g) => g.cls === 'script')!;
  assert.deepEqual([run.source, run.built], [50, 80]);
  assert.equal(gaps.find((g) => g.cls === 'download: document')?.source, 100);
  const totals = new Map(durationTotals(gaps));
  assert.deepEqual(totals.get('download: script'), { nodes: 1, matched: 1, source: 200, built: 300, browser: 91, longer: 0, shorter: 0 });
  // 80 against 50 ms: over 1.5x and 20 ms.
  assert.equal(totals.get('script')!.longer, 1);
});

test('a key the rebuilt graph lacks is counted, not summed', () => {
  const source = page(50, 200);
  const built = graphOf(PAGE, [res('doc', PAGE, 'text/html', 500, { start: 0, end: 90 })], []);
  const m = matchGraphs(source, built);
  const totals = new Map(durationTotals(pathDurationGaps(m.recorded, m.sk, m.bk)));
  assert.deepEqual(totals.get('script'), { nodes: 1, matched: 0, source: 0, built: 0, browser: 0, longer: 0, shorter: 0 });
  assert.equal(totals.get('download: document')!.built, 90);
});

test('classes by kind and by a download\'s type', () => {
  const [doc, , js] = page(1, 1).nodes;
  assert.equal(durationClass(doc!), 'download: document');
  assert.equal(durationClass(js!), 'download: script');
  assert.equal(durationClass({ ...js!, mimeType: 'font/woff2' } as typeof js & {}), 'download: font');
});
