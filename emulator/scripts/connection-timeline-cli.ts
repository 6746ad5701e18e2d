/**
 * `node --import tsx emulator/scripts/connection-timeline-cli.ts SLUG [options]`: one reference graph's TCP
 * events (connection-timeline.ts) under the thesis' settings by default.
 */
import { scriptArgs } from '@pcp/profiler/script-args';
import { LOSS_DETECTIONS, oneOf, parseRate, parseTime, PROTOCOLS, type LossDetection, type Protocol } from '../src/index.ts';
import { loadCorpus } from './corpus.ts';
import { connectionTimeline, formatEvent } from './connection-timeline.ts';

const { values, positionals } = scriptArgs('connection-timeline', `
usage: node --import tsx emulator/scripts/connection-timeline-cli.ts SLUG [--bandwidth 500kbit] [--rtt 8ms]
         [--protocol h1] [--loss-detection nack|sack] [--seed 1] [--connection N]

One simulation of a reference graph (SLUG from ../shared/legacy-corpus/index.json) with the thesis' chapter 4
settings (icwnd 4, RED 1.5 BDP, NewReno, RTT jitter +-0.1 d): every segment sent or sent again (and whether
it was dropped), every ACK and every timeout, per connection (numbered in the order they first sent), with
the sender's window, RTO and backoff after the event. --connection N prints one connection only.
`, { bandwidth: { type: 'string' }, rtt: { type: 'string' }, protocol: { type: 'string' }, 'loss-detection': { type: 'string' }, seed: { type: 'string' }, connection: { type: 'string' } }, true);

function fail(msg: string): never {
  console.error(`connection-timeline: ${msg}`);
  process.exit(2);
}

if (positionals.length !== 1) fail('expected one graph slug (--help for usage)');
const only = values.connection === undefined ? undefined : Number(values.connection);
if (only !== undefined && !Number.isInteger(only)) fail(`--connection expects an integer, got '${values.connection}'`);
const seed = Number(values.seed ?? 1);
if (!Number.isInteger(seed)) fail(`--seed expects an integer, got '${values.seed}'`);
let protocol: Protocol;
let ld: LossDetection;
let bandwidthBps: number;
let rttMs: number;
try {
  protocol = oneOf('protocol', values.protocol ?? 'h1', PROTOCOLS);
  ld = oneOf('loss-detection', values['loss-detection'] ?? 'nack', LOSS_DETECTIONS);
  bandwidthBps = parseRate(values.bandwidth ?? '500kbit');
  rttMs = parseTime(values.rtt ?? '8ms');
} catch (e) {
  fail((e as Error).message);
}
const entry = loadCorpus().find((c) => c.slug === positionals[0]);
if (!entry) fail(`no reference graph '${positionals[0]}'`);
const events = connectionTimeline(entry.graph, { bandwidthBps, rttMs, protocol, icwnd: 4, rttJitter: 0.1, seed, lossDetection: ld });
for (const e of events) if (only === undefined || e.conn === only) console.log(formatEvent(e));
