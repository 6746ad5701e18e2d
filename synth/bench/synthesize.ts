/**
 * `npm run bench:synth`: synthesis speed, graphs per second, over the 64 legacy graphs (read and
 * imported once, outside the timing), with the bytes of the sites made. A benchmark: no target.
 */
import { legacySites, loadGraph, median } from '@pcp/graph-builder';
import { synthesizeSite } from '@pcp/synth';
import { checkedOption, positiveInt, scriptArgs } from '@pcp/profiler/script-args';

const { values } = scriptArgs('bench:synth', `
usage: npm run bench:synth [-- --rounds N]

Synthesis speed: graphs per second over the 64 legacy graphs (read and imported once, outside the
timing), N rounds (default 3), with the bytes of the sites made. A benchmark: no target.
`, { rounds: { type: 'string' } });
const rounds = checkedOption('bench:synth', () => positiveInt('rounds', values.rounds, 3));
const graphs = legacySites().map((s) => loadGraph(s.graph));
const perRound: number[] = [];
let bytes = 0;
let warnings = 0;
for (let r = 0; r < rounds; r++) {
  const t0 = performance.now();
  for (const g of graphs) {
    const site = synthesizeSite(g);
    if (r === 0) {
      bytes += site.responses.reduce((s, x) => s + x.body.length, 0);
      warnings += site.warnings.length;
    }
  }
  perRound.push(performance.now() - t0);
}
const ms = median(perRound);
console.log(`${graphs.length} graphs, ${rounds} rounds: median ${ms.toFixed(0)} ms a round, ${(graphs.length / (ms / 1000)).toFixed(1)} graphs per second; ${(bytes / 1e6).toFixed(1)} MB of responses, ${warnings} warnings`);
