import { loadGraph, legacySites } from '@pcp/graph-builder';
import { indexGraph, contentKeys } from '@pcp/synth';
const j = JSON.parse((await import('node:fs')).readFileSync('/tmp/synth-rt2.json', 'utf8'));
for (const r of j.rows) {
  if (!r.f.missingResources.length) continue;
  const site = legacySites().find((s) => s.slug === r.graph)!;
  const g = loadGraph(site.graph); const ix = indexGraph(g); const k = contentKeys(ix, true);
  console.log('==', r.graph);
  for (const u of r.f.missingResources) {
    const n = ix.resourceByUrl.get(u); if (!n) { console.log('  ?', u.slice(0, 80)); continue; }
    const ps = (ix.parents.get(n.id) ?? []).map(e => { const p = ix.byId.get(e.from)!; return `${e.rule} ${p.kind} ${(p as any).eventName ?? ''}${(p as any).eventTarget ?? ''} ${(p as any).scriptKind ?? ''} ${k.get(p.id)?.slice(0, 90)}`; });
    console.log('  ', u.slice(0, 70), n.mimeType, n.requestType ?? '', '<-', ps.join(' ; '));
  }
}
