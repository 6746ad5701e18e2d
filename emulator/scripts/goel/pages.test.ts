import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkInvariants, simulate } from '../../src/index.ts';
import { buildPage, pageBytes, PAGE_FAMILIES } from './pages.ts';
import { goelConfig, LINUX_3_13_HOSTS, lossProfiles } from './profiles.ts';

test('Goel page families: counts and sizes as the paper describes them', () => {
  const by = new Map(PAGE_FAMILIES.map((p) => [p.name, p]));
  assert.equal(by.get('small-365')!.objects.length, 365);
  assert.equal(by.get('large-10')!.objects.length, 10);
  for (const [name, large, mb] of [['mixed-3', 3, 2], ['mixed-12', 12, 8], ['mixed-18', 18, 12]] as const) {
    const p = by.get(name)!;
    assert.equal(p.objects.length, 136);
    assert.equal(p.large, large);
    for (const b of p.objects.slice(0, large)) assert.ok(b >= 30_000 && b <= 620_000, `${name} large ${b}`);
    for (const b of p.objects.slice(large)) assert.ok(b >= 20 && b <= 5000, `${name} small ${b}`);
    const total = pageBytes(p) / 1e6;
    assert.ok(total > mb * 0.9 && total <= mb * 1.01, `${name}: ${total} MB, about ${mb}`);
  }
});

test('Goel pages: large objects on their own hostnames when sharded; every profile simulates cleanly', () => {
  const p = PAGE_FAMILIES.find((f) => f.name === 'mixed-3')!;
  const g = buildPage(p, 3);
  const hosts = new Set(g.nodes.flatMap((n) => (n.kind === 'resource' ? [new URL(n.url).host] : [])));
  assert.deepEqual([...hosts].sort(), ['large0.example.com', 'large1.example.com', 'large2.example.com', 'www.example.com']);
  const quality = lossProfiles({}, {}, 'quality').slice(2);
  assert.deepEqual(quality.map((q) => q.testbed?.family), ['quality', 'quality', 'quality', 'quality']);
  for (const profile of [...lossProfiles(), ...quality]) {
    for (const hosts of [{}, LINUX_3_13_HOSTS]) {
      for (const protocol of ['h1', 'h2'] as const) {
        const cfg = goelConfig(profile, protocol, 1, { ...hosts, shardLarge: protocol === 'h2' ? 20_000 : 0 });
        const r = simulate(buildPage(p), cfg);
        const what = `${profile.testbed?.family ?? 'reference'} ${profile.name} ${protocol}${hosts === LINUX_3_13_HOSTS ? ' Linux 3.13' : ''}`;
        assert.deepEqual(checkInvariants(buildPage(p), cfg, r), [], what);
        assert.equal(r.warnings, undefined, what);
      }
    }
  }
});

test('Goel pages: spreadHosts puts every other object on a second hostname (Fig. 19, 365 x 1 KB over 2)', () => {
  const p = PAGE_FAMILIES.find((f) => f.name === 'small-365')!;
  const count = (n: number): Map<string, number> => {
    const by = new Map<string, number>();
    for (const node of buildPage(p, 0, n).nodes) if (node.kind === 'resource' && node.id !== 'doc') by.set(new URL(node.url).host, (by.get(new URL(node.url).host) ?? 0) + 1);
    return by;
  };
  assert.deepEqual([...count(1)], [['www.example.com', 365]]);
  assert.deepEqual([...count(2)], [['www.example.com', 183], ['shard1.example.com', 182]]);
  assert.deepEqual([...count(3)], [['www.example.com', 122], ['shard1.example.com', 122], ['shard2.example.com', 121]]);
  // h2 opens one connection per hostname (no coalescing: Goel gave each its own certificate).
  const cfg = goelConfig(lossProfiles()[0]!, 'h2', 1, LINUX_3_13_HOSTS);
  for (const n of [1, 2, 3]) {
    const g = buildPage(p, 0, n);
    const r = simulate(g, cfg);
    assert.deepEqual(checkInvariants(g, cfg, r), [], `${n} hostnames`);
    assert.equal(r.connections, n, `${n} hostnames`);
  }
});
