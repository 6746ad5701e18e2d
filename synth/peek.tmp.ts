import { loadGraph, legacySites } from '@pcp/graph-builder';
import { indexGraph } from '@pcp/synth';
const j = JSON.parse((await import('node:fs')).readFileSync('/tmp/synth-rt-run1.json', 'utf8'));
const cls = new Map<string, number>();
const c = (k: string) => cls.set(k, (cls.get(k) ?? 0) + 1);
for (const r of j.rows) {
  const site = legacySites().find((s) => s.slug === r.graph)!;
  const g = loadGraph(site.graph); const ix = indexGraph(g);
  const missing = new Set<string>(r.f.missingResources);
  for (const u of missing) {
    const n = ix.resourceByUrl.get(u); if (!n) { c('not found'); continue; }
    const ps = (ix.parents.get(n.id) ?? []).map(e => ix.byId.get(e.from)!);
    const p = ps[0];
    if (!p) { c('no parent'); continue; }
    const pres = ps.find(x => x.kind === 'resource');
    // Is the parent itself caused by a missing resource upstream?
    let up = p; let depth = 0; let upstreamMissing = false;
    while (up && depth < 50) { const pp = (ix.parents.get(up.id) ?? []).map(e => ix.byId.get(e.from)!); const rr = pp.find(x => x.kind === 'resource') as any; if (rr && missing.has(rr.url)) { upstreamMissing = true; break; } up = pp.find(x => x.kind !== 'resource') ?? rr; depth++; }
    const desc = p.kind === 'event' ? `event ${(p as any).eventTarget}.${(p as any).eventName}` : p.kind === 'script_eval' ? `script_eval(${(ix.parents.get(p.id) ?? []).some(e => ix.byId.get(e.from)?.kind === 'resource') || (ix.parents.get(p.id) ?? []).some(e=>e.rule===12) ? 'loaded' : 'no download'})` : p.kind;
    c(`${desc}${upstreamMissing ? ' [upstream missing]' : ''} ${/^https:/.test(u) ? '' : ''}`);
  }
}
console.log([...cls].sort((a, b) => b[1] - a[1]).slice(0, 25));
