/**
 * npm run bench:shaper — the shaper check over issue 12's four conditions, each lossless and with 1%
 * loss, one after another (so they do not share the CPU), printed as one table. Strict targets: RTT
 * p50 ±2 ms, goodput ±10% of the rate (lossless), loss within the binomial tolerance.
 * Options: --seconds N (bulk transfer each way, default 4), --probes N (UDP probes each way, 3000).
 */
import { scriptArgs } from '@pcp/profiler/script-args';
import { formatReport, runCheck, type CheckReport } from '../src/measure/check.ts';

const CONDITIONS: [string, number, number][] = [
  ['1.6mbit/150ms', 1.6e6, 150],
  ['5mbit/40ms', 5e6, 40],
  ['10mbit/80ms', 10e6, 80],
  ['50mbit/20ms', 50e6, 20],
];

const { values } = scriptArgs('bench:shaper', `
usage: npm run bench:shaper [-- --seconds N --probes N]   (needs root)

Checks the shaper on issue 12's four conditions, each lossless and with 1% loss: RTT p50/p99 from ICMP
echoes, goodput each way over N-second transfers (default 4), UDP loss from N probes each way (default
3000), and the delay line's release lateness; prints the table of shaper/README.md.
`, { seconds: { type: 'string', default: '4' }, probes: { type: 'string', default: '3000' } });

const rows: string[][] = [];
let allOk = true;
let cc = '';
for (const [name, bandwidthBps, rttMs] of CONDITIONS) {
  for (const lossRate of [0, 0.01]) {
    const label = `${name}${lossRate ? ' 1%' : ''}`;
    process.stderr.write(`${label}: `);
    const r: CheckReport = await runCheck({ bandwidthBps, rttMs, lossRate, seed: 1 }, { seconds: Number(values.seconds), udpCount: Number(values.probes) });
    process.stderr.write(`${r.ok ? 'ok' : 'NOT MET'}\n`);
    if (!r.ok) process.stderr.write(`${formatReport(r)}\n`);
    allOk &&= r.ok;
    cc = r.congestionControl;
    const pctRate = (g: number) => `${((g / bandwidthBps) * 100).toFixed(1)}%`;
    const pct = (x: number) => `${(x * 100).toFixed(2)}%`;
    rows.push([
      label,
      r.backend,
      r.rtt.p50.toFixed(2),
      r.rtt.p99.toFixed(2),
      pctRate(r.goodput.downBps) + (r.goodput.judged ? '' : '*'),
      pctRate(r.goodput.upBps) + (r.goodput.judged ? '' : '*'),
      pct(r.loss.clientToServer.rate),
      pct(r.loss.serverToClient.rate),
      r.delayLine ? `${r.delayLine.releaseLatenessMs.p50.toFixed(2)}/${r.delayLine.releaseLatenessMs.p99.toFixed(2)}` : '-',
      r.ok ? 'yes' : 'NO',
    ]);
  }
}
const head = ['condition', 'backend', 'rtt p50 ms', 'rtt p99 ms', 'goodput down', 'goodput up', 'loss c->s', 'loss s->c', 'late p50/p99 ms', 'met'];
console.log(`| ${head.join(' | ')} |`);
console.log(`|${head.map(() => '---').join('|')}|`);
for (const r of rows) console.log(`| ${r.join(' | ')} |`);
console.log(`goodput as a share of the rate (TCP payload over IP bytes is at most 96.5%); * = under loss, not judged. TCP congestion control ${cc}. load average ${(await import('node:os')).loadavg()[0]!.toFixed(1)}`);
process.exit(allOk ? 0 : 1);
