import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateGraph } from '@pcp/graph-builder';
import { Rng } from '@pcp/emulator';
import { drawSize, parametricGraph, parseSizeDist } from './parametric.ts';
import { synthesizeSite } from './site.ts';

test('size distributions parse, and bad ones fail with one line', () => {
  assert.deepEqual(parseSizeDist('fixed:12k'), { kind: 'fixed', bytes: 12288 });
  assert.deepEqual(parseSizeDist('uniform:100-2k'), { kind: 'uniform', min: 100, max: 2048 });
  assert.deepEqual(parseSizeDist('lognormal:10k,1.5'), { kind: 'lognormal', median: 10240, sigma: 1.5 });
  assert.throws(() => parseSizeDist('pareto:1'), /--sizes expects/);
  assert.throws(() => parseSizeDist('uniform:5-1'), /5 < 1|1 < 5/);
  assert.throws(() => parseSizeDist('fixed:lots'), /not a byte size/);
});

test('lognormal sizes have about the asked median; uniform ones stay in range', () => {
  const rng = new Rng(7, 0);
  const xs = Array.from({ length: 2001 }, () => drawSize({ kind: 'lognormal', median: 10_000, sigma: 1 }, rng)).sort((a, b) => a - b);
  assert.ok(Math.abs(xs[1000]! / 10_000 - 1) < 0.15, `median ${xs[1000]}`);
  for (let i = 0; i < 200; i++) {
    const s = drawSize({ kind: 'uniform', min: 10, max: 20 }, rng);
    assert.ok(s >= 10 && s <= 20);
  }
});

test('a parametric page is a valid graph of N images over the shards, and synthesizes to N+1 responses', () => {
  const g = parametricGraph({ objects: 30, sizes: { kind: 'fixed', bytes: 5000 }, origin: 'http://goel.pcp.test', shards: 3, seed: 2 });
  assert.deepEqual(validateGraph(g), { ok: true, errors: [] });
  const hosts = new Set(g.nodes.flatMap((n) => (n.kind === 'resource' && n.mimeType === 'image/png' ? [new URL(n.url).host] : [])));
  assert.deepEqual([...hosts].sort(), ['s0.goel.pcp.test', 's1.goel.pcp.test', 's2.goel.pcp.test']);
  const site = synthesizeSite(g);
  assert.equal(site.responses.length, 31);
  assert.ok(site.responses.slice(1).every((r) => r.body.length === 5000));
  assert.equal((site.responses[0]!.body.toString().match(/<img /g) ?? []).length, 30);
  assert.deepEqual(site.warnings, []);
});
