import { loadGraph } from '@pcp/graph-builder';
import { indexGraph, contentKeys } from '@pcp/synth';
for (const f of process.argv.slice(2)) {
  const g = loadGraph(f); const ix = indexGraph(g); const k = contentKeys(ix);
  console.log('==', f, JSON.stringify(g.markers), JSON.stringify(g.navigation));
  for (const e of g.edges) { const a = ix.byId.get(e.from)!, b = ix.byId.get(e.to)!; if (!['resource','download_chunk'].includes(b.kind) || e.rule !== 9) console.log(`${e.rule}\t${k.get(e.from)}\t->\t${k.get(e.to)}`); }
}
