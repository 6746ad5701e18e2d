import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toLayoutInput } from './layoutTypes.ts';
import { timeAxisLayout } from './timeAxisLayout.ts';
import { edgeAt, NodeHitIndex } from './hitTest.ts';
import { distanceSqToPath, edgePath, pathMidpoint } from './edgeGeometry.ts';
import type { Layout } from './layoutTypes.ts';
import { syntheticGraph } from '../../test/synthetic.ts';

const g = syntheticGraph(600, { seed: 4 });
const { input } = toLayoutInput(g);
const layout = timeAxisLayout(input);

/** Every node whose box (grown by tol) holds the point, the smallest first: the brute-force answer. */
function bruteNodeAt(l: Layout, px: number, py: number, tol: number): number {
  let best = -1;
  let area = Infinity;
  for (let i = 0; i < l.x.length; i++) {
    if (l.hidden[i]) continue;
    if (px < l.x[i]! - tol || px > l.x[i]! + l.w[i]! + tol || py < l.y[i]! - tol || py > l.y[i]! + l.h[i]! + tol) continue;
    if (l.w[i]! * l.h[i]! < area) (best = i), (area = l.w[i]! * l.h[i]!);
  }
  return best;
}

test('the node index answers as a brute-force scan does, at every node centre and at random points', () => {
  const index = new NodeHitIndex(layout, input);
  for (let i = 0; i < layout.x.length; i++) {
    const cx = layout.x[i]! + layout.w[i]! / 2;
    const cy = layout.y[i]! + layout.h[i]! / 2;
    const hit = index.nodeAt(cx, cy, 0.5);
    assert.notEqual(hit, -1, `centre of node ${i}`);
    assert.equal(hit, bruteNodeAt(layout, cx, cy, 0.5));
  }
  let seed = 1;
  const rnd = (): number => ((seed = (seed * 16807) % 2147483647) / 2147483647);
  let misses = 0;
  for (let k = 0; k < 2000; k++) {
    const px = rnd() * layout.width;
    const py = rnd() * layout.height;
    const hit = index.nodeAt(px, py, 1);
    assert.equal(hit, bruteNodeAt(layout, px, py, 1), `at ${px}, ${py}`);
    if (hit < 0) misses++;
  }
  assert.ok(misses > 0 && misses < 2000, 'random points hit some nodes and miss others');
});

test('a collapsed frame is hit as one bar, reported as its first node', () => {
  const frame = input.frame[input.frame.length - 1]!;
  const closed = timeAxisLayout(input, new Set([frame]));
  const members = [...input.frame.keys()].filter((i) => input.frame[i] === frame);
  assert.ok(members.length > 1);
  const index = new NodeHitIndex(closed, input);
  const m = members[members.length - 1]!;
  assert.equal(index.nodeAt(closed.x[m]! + closed.w[m]! / 2, closed.y[m]! + closed.h[m]! / 2, 0), members[0]);
});

test('an edge is found at the middle of its drawn polyline, and not far from every edge', () => {
  let found = 0;
  const pts: number[] = [];
  for (let e = 0; e < input.edgeFrom.length; e++) {
    const [mx, my] = pathMidpoint(edgePath(layout, input, e, pts));
    const hit = edgeAt(layout, input, mx, my, 0.01);
    assert.notEqual(hit, -1, `edge ${e}`);
    // Another edge may cross the same point; the hit must then pass through it as well.
    if (hit === e) found++;
    else assert.ok(distanceSqToPath(edgePath(layout, input, hit, pts), mx, my) <= 1e-4, `edge ${hit} is not at edge ${e}'s midpoint`);
  }
  assert.ok(found > 0.9 * input.edgeFrom.length, `${found} of ${input.edgeFrom.length} edges found at their midpoints`);
  assert.equal(edgeAt(layout, input, -1e6, -1e6, 4), -1);
});
