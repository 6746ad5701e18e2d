import { test } from 'node:test';
import assert from 'node:assert/strict';
import { distanceSqToPath, edgePath, edgeShown, intersects, pathBounds, pathManhattanLength, pathMidpoint } from './edgeGeometry.ts';
import type { Layout, LayoutInput } from './layoutTypes.ts';

/** Two boxes a (0,0 10x4) and b (30,20 10x4) joined by one edge, optionally bent at (20, 2) and (20, 22). */
function twoBoxes(bent: boolean, hidden: [number, number] = [0, 0], frames: [number, number] = [0, 0]): { l: Layout; input: LayoutInput } {
  const input: LayoutInput = {
    kinds: ['script_eval', 'script_eval'],
    frame: Int32Array.from(frames),
    start: new Float64Array(2),
    end: new Float64Array(2),
    edgeFrom: Int32Array.from([0]),
    edgeTo: Int32Array.from([1]),
    edgeSource: Int32Array.from([0]),
    frames: [{ id: 'f0', url: '', depth: 0 }, { id: 'f1', url: '', depth: 1 }],
  };
  const l: Layout = {
    kind: 'layered',
    x: Float64Array.from([0, 30]),
    y: Float64Array.from([0, 20]),
    w: Float64Array.from([10, 10]),
    h: Float64Array.from([4, 4]),
    hidden: Uint8Array.from(hidden),
    groups: [],
    lanes: [],
    width: 40,
    height: 24,
    ...(bent ? { edgeBends: { offset: Int32Array.from([0, 2]), points: Float64Array.from([20, 2, 20, 22]) } } : {}),
  };
  return { l, input };
}

test('a straight edge runs from the middle of the source\'s right side to the middle of the target\'s left side', () => {
  const { l, input } = twoBoxes(false);
  assert.deepEqual(edgePath(l, input, 0), [10, 2, 30, 22]);
});

test('a routed edge passes through its bend points in order, and the output buffer is reused', () => {
  const { l, input } = twoBoxes(true);
  const out = [99, 99, 99];
  assert.equal(edgePath(l, input, 0, out), out);
  assert.deepEqual(out, [10, 2, 20, 2, 20, 22, 30, 22]);
  assert.deepEqual(pathBounds(out), { x0: 10, y0: 2, x1: 30, y1: 22 });
  assert.equal(pathManhattanLength(out), 10 + 20 + 10);
  // Halfway along 40 units of length: the middle of the vertical segment.
  assert.deepEqual(pathMidpoint(out), [20, 12]);
});

test('distance to a polyline is the distance to its nearest segment', () => {
  const pts = [10, 2, 20, 2, 20, 22, 30, 22];
  assert.equal(distanceSqToPath(pts, 15, 2), 0);
  assert.equal(distanceSqToPath(pts, 23, 12), 9); // 3 right of the vertical segment
  assert.equal(distanceSqToPath(pts, 0, 2), 100); // 10 left of the first point
  assert.equal(distanceSqToPath([5, 5, 5, 5], 8, 9), 25); // a degenerate segment is a point
});

test('an edge inside one collapsed frame is not drawn; one between two collapsed frames is', () => {
  assert.equal(edgeShown(twoBoxes(false, [1, 1]).l, twoBoxes(false, [1, 1]).input, 0), false);
  const other = twoBoxes(false, [1, 1], [0, 1]);
  assert.equal(edgeShown(other.l, other.input, 0), true);
  const open = twoBoxes(false, [1, 0]);
  assert.equal(edgeShown(open.l, open.input, 0), true);
});

test('rectangles intersect when they overlap or touch', () => {
  assert.ok(intersects({ x0: 0, y0: 0, x1: 10, y1: 10 }, { x0: 10, y0: 10, x1: 20, y1: 20 }));
  assert.ok(!intersects({ x0: 0, y0: 0, x1: 10, y1: 10 }, { x0: 11, y0: 0, x1: 20, y1: 10 }));
});
