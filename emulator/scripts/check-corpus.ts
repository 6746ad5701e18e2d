/**
 * Invariant sweep over the 64 reference graphs (root script "emulate:check"): every protocol and option
 * family at a spread of (bandwidth, RTT) points, each simulation checked with checkInvariants and for
 * activities that never ran. Prints the violations and a summary line; exits 1 when there are any.
 */
import { fileURLToPath } from 'node:url';
import { scriptArgs } from '@pcp/profiler/script-args';
import { checkInvariants, simulate, type EmulatorConfig } from '../src/index.ts';
import { loadCorpus } from './corpus.ts';

const trace = (name: string): string => fileURLToPath(new URL(`../traces/${name}.trace`, import.meta.url));

scriptArgs('emulate:check', `
usage: npm run emulate:check

Simulates the 64 reference graphs under every protocol and option family (lossy, traced and two-path
links included) at a spread of (bandwidth, RTT) points and checks each simulation's invariants (each
response stream's bytes delivered once and in order, phases summing to spans, bandwidth bounds, every
activity run). Exit status 1 on any
violation.
`, {});

const configs: EmulatorConfig[] = [
  { bandwidthBps: 1e6, rttMs: 100, protocol: 'h1', icwnd: 4 },
  { bandwidthBps: 500e3, rttMs: 8, protocol: 'h2', icwnd: 10 },
  { bandwidthBps: 50e6, rttMs: 8, protocol: 'h2', priority: 'criticalPath' },
  { bandwidthBps: 5e6, rttMs: 200, protocol: 'quic-lite', priority: 'mimeType', rttJitter: 0.1 },
  { bandwidthBps: 2.5e6, rttMs: 40, protocol: 'h1-pipelined', server: 'serial' },
  { bandwidthBps: 10e6, rttMs: 40, protocol: 'h1.0', dnsRtts: 1, tlsRtts: 1 },
  // The main thread in Blink's order (ready order) instead of the thesis's.
  { bandwidthBps: 10e6, rttMs: 40, protocol: 'h2', mainThreadOrder: 'ready' },
  { bandwidthBps: 1e9, rttMs: 400, protocol: 'h1', congestionControl: 'cubic', queue: 'droptail', icwnd: 1 },
  // Issue 17: lossy links, bursty loss with latency spikes, link traces, delayed ACKs, sharding.
  { bandwidthBps: 5e6, rttMs: 40, protocol: 'h1', lossRate: 0.01 },
  { bandwidthBps: 5e6, rttMs: 70, protocol: 'h2', lossModel: 'gilbert:0.01,0.2,0,0.3', latencySpikes: '2s,200ms', delayedAcks: true, tlp: true, tlsRtts: 1, receiveWindow: 65_000 },
  { bandwidthBps: 1e6, rttMs: 70, protocol: 'h2', downlinkTrace: trace('cellular-variable'), uplinkTrace: trace('const-12mbit'), lossRate: 0.005, shardLarge: 30_000, delayedAcks: true },
  { bandwidthBps: 10e6, rttMs: 80, protocol: 'quic-lite', delayedAcks: true, uplinkLossModel: 'bernoulli:0.05', congestionControl: 'cubic' },
  // Two paths (MPTCP, thesis chapter 6): baseline h2 with LIA on a 5x-RTT second path, and MP QUIC with the
  // Stream Scheduler on a lossy 1/5-bandwidth one.
  { bandwidthBps: 10e6, rttMs: 40, protocol: 'h2', priority: 'criticalPath', icwnd: 4, rttJitter: 0.1, path2: { bandwidthBps: 10e6, rttMs: 200 } },
  { bandwidthBps: 5e6, rttMs: 8, protocol: 'quic-lite', priority: 'criticalPath', mptcpScheduler: 'stream', mptcpCc: 'uncoupled', path2: { bandwidthBps: 1e6, rttMs: 8, loss: 0.01 } },
  // Both together: MPTCP whose first path is lossy with delayed ACKs, and one whose first path follows a trace.
  { bandwidthBps: 5e6, rttMs: 40, protocol: 'h2', lossModel: 'gilbert:0.01,0.2,0,0.3', delayedAcks: true, psh: true, tlp: true, tlsRtts: 1, receiveWindow: 65_000, path2: { bandwidthBps: 5e6, rttMs: 100, loss: 0.01 } },
  { bandwidthBps: 1e6, rttMs: 70, protocol: 'quic-lite', downlinkTrace: trace('cellular-variable'), lossRate: 0.005, mptcpScheduler: 'stream', mptcpCc: 'uncoupled', path2: { bandwidthBps: 5e6, rttMs: 30 } },
  // A lossy, traced second path (Han's WiFi + LTE): bursty loss, latency spikes and a cellular trace on path 2
  // only; and MP QUIC over a randomly lossy LTE-like path 2 with SACK-style loss detection.
  { bandwidthBps: 20e6, rttMs: 30, protocol: 'h2', tlsRtts: 1, delayedAcks: true, path2: { bandwidthBps: 7e6, rttMs: 70, lossModel: 'gilbert:0.01,0.2,0,0.3', latencySpikes: '2s,200ms', downlinkTrace: trace('cellular-variable'), uplinkTrace: trace('const-12mbit') } },
  { bandwidthBps: 20e6, rttMs: 30, protocol: 'quic-lite', mptcpScheduler: 'stream', mptcpCc: 'uncoupled', lossDetection: 'sack', path2: { bandwidthBps: 7e6, rttMs: 70, loss: 0.01, downlinkTrace: trace('cellular-variable') } },
  // Loss detection by ACK clocking (three duplicate ACKs, the RFC 6298 timeout; Linux's for TCP): TCP, QUIC-lite, MPTCP subflows.
  { bandwidthBps: 5e6, rttMs: 40, protocol: 'h1', lossRate: 0.01, lossDetection: 'sack', linuxRto: true },
  { bandwidthBps: 5e6, rttMs: 70, protocol: 'h2', lossModel: 'gilbert:0.01,0.2,0,0.3', latencySpikes: '2s,200ms', delayedAcks: true, tlp: true, tlsRtts: 1, receiveWindow: 65_000, lossDetection: 'sack' },
  { bandwidthBps: 10e6, rttMs: 80, protocol: 'quic-lite', lossRate: 0.02, delayedAcks: true, congestionControl: 'cubic', lossDetection: 'sack' },
  { bandwidthBps: 5e6, rttMs: 40, protocol: 'h2', lossModel: 'gilbert:0.01,0.2,0,0.3', delayedAcks: true, psh: true, tlp: true, tlsRtts: 1, path2: { bandwidthBps: 5e6, rttMs: 100, loss: 0.01 }, lossDetection: 'sack' },
  // Linux 3.13's recovery (Goel's hosts): early retransmit, FACK, F-RTO over lossy ACKs, CUBIC, the receive window's
  // autotuning; QUIC-lite's probe timeout.
  { bandwidthBps: 2e6, rttMs: 50, protocol: 'h2', lossModel: 'gilbert:0.02,0.2,0,0.3', delayedAcks: true, tlp: true, tlsRtts: 1, receiveWindow: 65_000, receiveWindowGrowth: true, congestionControl: 'cubic', lossDetection: 'sack', earlyRetransmit: true, fack: true, frto: true, shardLarge: 20_000 },
  { bandwidthBps: 5e6, rttMs: 40, protocol: 'quic-lite', lossModel: 'gilbert:0.02,0.2,0,0.3', latencySpikes: '2s,200ms', delayedAcks: true, lossDetection: 'sack', quicPto: true, frto: true },
];
const corpus = loadCorpus();
let bad = 0;
let n = 0;
for (const { slug, graph } of corpus) {
  for (const cfg of configs) {
    n++;
    const r = simulate(graph, cfg, { recordStreams: true });
    const v = checkInvariants(graph, cfg, r);
    if (r.warnings) v.push(...r.warnings);
    if (v.length) {
      bad++;
      console.log(`${slug} ${JSON.stringify(cfg)}:\n  ${v.join('\n  ')}`);
    }
  }
}
console.log(`${n} simulations over ${corpus.length} graphs x ${configs.length} configs: ${bad} with violations`);
process.exitCode = bad ? 1 : 0;
