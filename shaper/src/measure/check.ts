/**
 * The shaper check: open a link, measure it with real sockets from both namespaces (probe.ts), and
 * compare with the targets: RTT p50 within ±2 ms, goodput within 10% of the rate each way, loss
 * within the binomial tolerance of the target each way.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { quantile } from '@pcp/graph-builder/analysis/stats.ts';
import { ShaperError } from '../errors.ts';
import { openShapedLink, type LinkSpec } from '../link.ts';
import type { Link } from '../link.ts';
import type { DelayLineStats } from '../delay-line.ts';
import { lossTolerance, udpRate } from './stats.ts';
import type { ProbePlan, ProbeResult } from './probe.ts';

const PROBE = fileURLToPath(new URL('./probe.ts', import.meta.url));
const TSX = import.meta.resolve('tsx');
const PORT = 5201;

export interface CheckOptions {
  pings?: number;
  seconds?: number;
  udpCount?: number;
  /** accepted |p50 − target| in ms (default 2) */
  rttToleranceMs?: number;
  /** accepted |goodput − rate| / rate (default 0.10) */
  goodputTolerance?: number;
}

export interface DirectionLoss {
  sent: number;
  lost: number;
  rate: number;
  accepted: { min: number; max: number };
  ok: boolean;
}

export interface CheckReport {
  spec: Required<Pick<LinkSpec, 'bandwidthBps' | 'rttMs' | 'lossRate'>>;
  backend: 'netem' | 'delay-line';
  realtime: boolean | undefined;
  rtt: { p50: number; p99: number; samples: number; failures: number; toleranceMs: number; ok: boolean };
  goodput: { downBps: number; upBps: number; tolerance: number; ok: boolean };
  loss: { clientToServer: DirectionLoss; serverToClient: DirectionLoss; ok: boolean };
  delayLine?: DelayLineStats;
  ok: boolean;
}

function defaultPlan(spec: Required<Pick<LinkSpec, 'bandwidthBps' | 'rttMs' | 'lossRate'>>, o: CheckOptions, clientHost: string): ProbePlan {
  return {
    pings: o.pings ?? 60,
    pingGapMs: 10,
    seconds: o.seconds ?? 4,
    warmupMs: Math.max(500, 8 * spec.rttMs),
    udpCount: o.udpCount ?? 3000,
    udpPps: udpRate(spec.bandwidthBps, 200),
    udpBytes: 200,
    udpSettleMs: spec.rttMs + 500,
    clientHost,
  };
}

function waitForLine(proc: ChildProcess, want: (l: string) => boolean, what: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let stderr = '';
    proc.stderr?.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const lines = createInterface({ input: proc.stdout! });
    lines.on('line', (l) => {
      if (want(l)) resolve(l);
    });
    proc.once('exit', (code) => reject(new ShaperError(`${what} exited (${code}): ${stderr.trim().split('\n').pop() ?? ''}`)));
    proc.once('error', (e) => reject(new ShaperError(`${what}: ${e.message}`)));
  });
}

function lossOf(sent: number, received: number, p: number): DirectionLoss {
  const lost = sent - received;
  const accepted = lossTolerance(sent, p);
  return { sent, lost, rate: sent ? lost / sent : NaN, accepted, ok: lost >= accepted.min && lost <= accepted.max };
}

/** Evaluates a probe result against the link's targets (pure). */
export function judge(spec: CheckReport['spec'], r: ProbeResult, o: CheckOptions = {}): Omit<CheckReport, 'backend' | 'realtime' | 'delayLine'> {
  const toleranceMs = o.rttToleranceMs ?? 2;
  const tolerance = o.goodputTolerance ?? 0.1;
  const p50 = quantile(r.rttMs, 0.5);
  const rtt = { p50, p99: quantile(r.rttMs, 0.99), samples: r.rttMs.length, failures: r.rttFailures, toleranceMs, ok: Math.abs(p50 - spec.rttMs) <= toleranceMs };
  const within = (g: number) => Number.isNaN(g) || Math.abs(g - spec.bandwidthBps) / spec.bandwidthBps <= tolerance;
  const goodput = { downBps: r.downGoodputBps, upBps: r.upGoodputBps, tolerance, ok: within(r.downGoodputBps) && within(r.upGoodputBps) };
  const c2s = lossOf(r.udp.clientToServer.sent, r.udp.clientToServer.received, spec.lossRate);
  const s2c = lossOf(r.udp.serverToClient.sent, r.udp.serverToClient.received, spec.lossRate);
  const loss = { clientToServer: c2s, serverToClient: s2c, ok: c2s.ok && s2c.ok };
  return { spec, rtt, goodput, loss, ok: rtt.ok && goodput.ok && loss.ok };
}

export async function runCheck(linkSpec: LinkSpec, o: CheckOptions = {}): Promise<CheckReport> {
  const spec = { bandwidthBps: linkSpec.bandwidthBps, rttMs: linkSpec.rttMs, lossRate: linkSpec.lossRate ?? 0 };
  const link = (await openShapedLink(linkSpec)) as Link;
  const procs: ChildProcess[] = [];
  try {
    const node = (side: 'client' | 'server', args: string[]) => {
      const w = link.wrap(side, process.execPath, ['--import', TSX, PROBE, ...args]);
      const p = spawn(w.cmd, w.args, { stdio: ['ignore', 'pipe', 'pipe'] });
      procs.push(p);
      return p;
    };
    const server = node('server', ['server', link.serverAddr, String(PORT)]);
    await waitForLine(server, (l) => l === 'ready', 'probe server');
    const plan = defaultPlan(spec, o, link.clientAddr);
    const client = node('client', ['client', link.serverAddr, String(PORT), JSON.stringify(plan)]);
    const line = await waitForLine(client, (l) => l.startsWith('{'), 'probe client');
    const result = JSON.parse(line) as ProbeResult;
    const delayLine = await link.delayLineStats();
    return { ...judge(spec, result, o), backend: link.backend, realtime: link.delayLine?.realtime, ...(delayLine ? { delayLine } : {}) };
  } finally {
    for (const p of procs) p.kill('SIGKILL');
    await link.close();
  }
}

const mbit = (bps: number) => `${(bps / 1e6).toFixed(2)} Mbit/s`;

/** The report as the lines `pcp shaper check` prints. */
export function formatReport(r: CheckReport): string {
  const mark = (ok: boolean) => (ok ? 'ok  ' : 'FAIL');
  const pct = (x: number) => `${(x * 100).toFixed(2)}%`;
  const l = r.loss;
  const lines = [
    `backend ${r.backend}${r.realtime === undefined ? '' : r.realtime ? ' (delay line at real-time priority)' : ' (delay line NOT at real-time priority)'}`,
    `${mark(r.rtt.ok)} rtt      p50 ${r.rtt.p50.toFixed(2)} ms, p99 ${r.rtt.p99.toFixed(2)} ms over ${r.rtt.samples} TCP handshakes${r.rtt.failures ? ` (${r.rtt.failures} failed)` : ''}; target ${r.spec.rttMs} ± ${r.rtt.toleranceMs} ms (p50)`,
    `${mark(r.goodput.ok)} goodput  down ${mbit(r.goodput.downBps)}, up ${mbit(r.goodput.upBps)}; target ${mbit(r.spec.bandwidthBps)} ± ${r.goodput.tolerance * 100}% (TCP payload over IP rate is at most 96.5%)`,
    `${mark(l.ok)} loss     client->server ${l.clientToServer.lost}/${l.clientToServer.sent} (${pct(l.clientToServer.rate)}), server->client ${l.serverToClient.lost}/${l.serverToClient.sent} (${pct(l.serverToClient.rate)}); target ${pct(r.spec.lossRate)}, accepted ${l.clientToServer.accepted.min}..${l.clientToServer.accepted.max} lost`,
  ];
  if (r.delayLine) lines.push(`delay line release lateness p50 ${r.delayLine.releaseLatenessMs.p50.toFixed(2)} ms, p99 ${r.delayLine.releaseLatenessMs.p99.toFixed(2)} ms (10 µs buckets, upper edges)`);
  lines.push(r.ok ? 'all targets met' : 'targets NOT met');
  return lines.join('\n');
}
