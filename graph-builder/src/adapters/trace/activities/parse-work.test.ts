/** The parser's own work, on real Chromium 156 traces (../fixtures). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseWorkClock, parseWorkIntervals } from './parse-work.ts';
import { sameDoc } from './context.ts';
import { contextOf } from './test-support.ts';

function docParses(name: string) {
  const ctx = contextOf(name);
  const [frame, req] = [...ctx.docRequest].find(([, r]) => ctx.slices.some((s) => s.kind === 'parse' && s.url && sameDoc(s.url, r.url)))!;
  const parses = ctx.slices.filter((s) => s.kind === 'parse' && s.frame === frame && s.url !== undefined && sameDoc(s.url, req.url));
  const isComp = (s: { index: number }): boolean => ctx.compOfSlice.has(s.index);
  return { ctx, parses, isComp };
}

test('a parser blocked on a sync script: the work before the script is the first ParseHTML slice, not the wait (r04)', () => {
  const { ctx, parses, isComp } = docParses('r04-sync-script-blocks');
  const work = parseWorkClock(parses, ctx.slices, isComp);
  const [first, second] = [parses[0]!, parses[1]!];
  const script = ctx.slices.find((s) => s.kind === 'script' && s.url?.endsWith('/blocking.js'))!;
  assert.ok(script.start - first.end > 150, 'the parser waited for blocking.js (served 150 ms late)');
  assert.ok(Math.abs(work(script.start) - (first.end - first.start)) < 1e-9);
  assert.ok(work(script.start) < 5);
  // The clock does not run during the wait, and runs again in the next slice.
  assert.equal(work(first.end + 100), work(first.end));
  assert.ok(work(second.end) > work(second.start));
  assert.equal(work(first.start - 1), 0);
});

test('work intervals are disjoint, inside parse slices, and leave out the computations nested in them', () => {
  let checkedNested = 0;
  for (const name of ['example-site.trace.json.gz', 'r04-sync-script-blocks', 'r22-frame-script', 'r25-event-specific']) {
    const { ctx, parses, isComp } = docParses(name);
    const ivs = parseWorkIntervals(parses, ctx.slices, isComp);
    for (let i = 1; i < ivs.length; i++) assert.ok(ivs[i - 1]![1] <= ivs[i]![0], `${name}: disjoint`);
    for (const [a, b] of ivs) {
      assert.ok(a < b);
      assert.ok(parses.some((p) => p.start <= a && b <= p.end), `${name}: inside a parse slice`);
      const inside = ctx.slices.filter((s) => s.parent !== undefined && parses.some((p) => p.index === s.parent) && isComp(s));
      for (const s of inside) assert.ok(b <= s.start || a >= s.end, `${name}: no nested computation's time`);
    }
    const span = parses.reduce((t, p) => t + p.end - p.start, 0);
    const total = ivs.reduce((t, [a, b]) => t + b - a, 0);
    assert.ok(total > 0 && total <= span + 1e-9, `${name}: work ${total} within the slices' span ${span}`);
    // An inline script the parser ran (example-site, r25: 7-10 ms) is the script's time, not the parser's.
    const nestedTime = ctx.slices.filter((s) => s.parent !== undefined && parses.some((p) => p.index === s.parent) && isComp(s)).reduce((t, s) => t + s.end - s.start, 0);
    if (nestedTime > 1) checkedNested++;
    assert.ok(Math.abs(total - (span - nestedTime)) < 1e-6, `${name}: work = span - nested computations`);
  }
  assert.ok(checkedNested >= 2, 'fixtures with a script run inside a parse slice were checked');
});
