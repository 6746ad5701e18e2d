import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadDelayCdfs, ServerDelaySampler, type DelayCdfs } from './server-delays.ts';
import { Rng } from './rng.ts';

/** The definition: the delay of the first point whose cumulative probability reaches u (the last when none does). */
function byScan(points: Array<[number, number]>, u: number): number {
  for (const [d, p] of points) if (p >= u) return d;
  return points[points.length - 1]![0];
}

test('a draw is the first CDF point reaching the uniform number, ties, steps and short CDFs included', () => {
  // Repeated probabilities (steps), a CDF that never reaches 1, points on bucket edges (k / 1024).
  const cdfs: DelayCdfs = {
    text: [[1, 0.1], [2, 0.1], [3, 0.25], [4, 0.25], [5, 0.5], [6, 0.75], [7, 0.9]],
    css: [[10, 0.5]],
    image: Array.from({ length: 5000 }, (_, i) => [i, Math.min(1, ((i * 7) % 4999) / 4998 + 0)] as [number, number]).sort((a, b) => a[1] - b[1]),
    other: [[1, 1 / 1024], [2, 1 / 1024], [3, 2 / 1024], [4, 1023 / 1024], [5, 1]],
  };
  for (const cls of ['text', 'css', 'image', 'other'] as const) {
    const sampler = new ServerDelaySampler(cdfs, new Rng(7, 2));
    const draws = new Rng(7, 2);
    for (let i = 0; i < 20000; i++) assert.equal(sampler.delay(undefined, cls), byScan(cdfs[cls]!, draws.next()), `${cls} draw ${i}`);
  }
});

test('the corpus CDFs: every class drawn as the definition says (issue 17: the guide table changes no draw)', () => {
  let cdfs: DelayCdfs;
  try {
    cdfs = loadDelayCdfs();
  } catch {
    return; // no shared corpus on this machine: the synthetic CDFs above still check the search
  }
  for (const cls of ['text', 'css', 'javascript', 'image', 'other', 'post'] as const) {
    if (!cdfs[cls]) continue;
    const sampler = new ServerDelaySampler(cdfs, new Rng(3, 2));
    const draws = new Rng(3, 2);
    for (let i = 0; i < 3000; i++) assert.equal(sampler.delay(undefined, cls), byScan(cdfs[cls]!, draws.next()));
  }
});

test('a recorded delay is used as it is', () => {
  const sampler = new ServerDelaySampler({ text: [[1, 1]] }, new Rng(1, 2));
  assert.equal(sampler.delay(12.5, 'text'), 12.5);
});
