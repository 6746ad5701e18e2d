/**
 * The shaper check: open a link, measure it from both namespaces (rttping for the RTT, probe.ts's real
 * TCP and UDP sockets for goodput and loss), and
 * compare with the targets: RTT p50 within ±2 ms, goodput within 10% of the rate each way, loss
 * within the binomial tolerance of the target each way.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { quantile } from '@pcp/graph-builder';
import { ShaperError } from '../errors.ts';
import { nativeBinary } from '../native.ts';
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
  /** lost on the link: sent − received − receiverOverflow */
  lost: number;
  /** probes that crossed the link but found the receiving socket's buffer full (a busy receiver) */
  receiverOverflow: number;
  rate: number;
  accepted: { min: number; max: number };
  ok: boolean;
}

export interface CheckReport {
  spec: Required<Pick<LinkSpec, 'bandwidthBps' | 'rttMs' | 'lossRate'>>;
  backend: 'netem' | 'delay-line';
  realtime: boolean | undefined;
  /** the namespaces' TCP congestion control (inherited from the machine's default) */
  congestionControl: string;
  rtt: { p50: number; p99: number; samples: number; lost: number; toleranceMs: number; ok: boolean };
  goodput: { downBps: number; upBps: number; tolerance: number; judged: boolean; ok: boolean };
  loss: { clientToServer: DirectionLoss; serverToClient: DirectionLoss; ok: boolean };
  delayLine?: DelayLineStats;
  ok: boolean;
}

function defaultPlan(spec: Required<Pick<LinkSpec, 'bandwidthBps' | 'rttMs' | 'lossRate'>>, o: CheckOptions, clientHost: string): ProbePlan {
  return {
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

function lossOf(sent: number, received: number, receiverOverflow: number, p: number): DirectionLoss {
  const lost = sent - received - receiverOverflow;
  const accepted = lossTolerance(sent, p);
  return { sent, lost, receiverOverflow, rate: sent ? lost / sent : NaN, accepted, ok: lost >= accepted.min && lost <= accepted.max };
}

/** The UDP RcvbufErrors counter of /proc/net/snmp (datagrams dropped because a socket buffer was full). */
export function udpRcvbufErrors(snmp: string): number {
  const lines = snmp.split('\n').filter((l) => l.startsWith('Udp: '));
  const [head, vals] = [lines[0]?.split(/\s+/) ?? [], lines[1]?.split(/\s+/) ?? []];
  const i = head.indexOf('RcvbufErrors');
  return i > 0 ? Number(vals[i] ?? 0) : 0;
}

function rcvbufErrorsIn(link: Link, side: 'client' | 'server'): number {
  const w = link.wrap(side, 'cat', ['/proc/net/snmp']);
  return udpRcvbufErrors(execFileSync(w.cmd, w.args, { encoding: 'utf8' }));
}

/** What rttping printed: the round-trip times and the echoes that never came back. */
export function parseRttping(out: string): { rttMs: number[]; lost: number } {
  const rttMs: number[] = [];
  let lost = 0;
  for (const line of out.split('\n')) {
    const m = /^rtt ([0-9.]+)$/.exec(line.trim());
    if (m) rttMs.push(Number(m[1]));
    else if (line.startsWith('lost ')) lost++;
  }
  return { rttMs, lost };
}

/** Evaluates the measurements against the link's targets (pure). */
export function judge(
  spec: CheckReport['spec'],
  ping: { rttMs: number[]; lost: number },
  r: ProbeResult,
  o: CheckOptions = {},
  overflow = { clientToServer: 0, serverToClient: 0 },
): Omit<CheckReport, 'backend' | 'realtime' | 'congestionControl' | 'delayLine'> {
  const toleranceMs = o.rttToleranceMs ?? 2;
  const tolerance = o.goodputTolerance ?? 0.1;
  const p50 = quantile(ping.rttMs, 0.5);
  const rtt = { p50, p99: quantile(ping.rttMs, 0.99), samples: ping.rttMs.length, lost: ping.lost, toleranceMs, ok: Math.abs(p50 - spec.rttMs) <= toleranceMs };
  // Under loss TCP is not expected to fill the link (its loss response decides), so goodput is
  // reported but judged only on a lossless link.
  const judged = spec.lossRate === 0;
  const within = (g: number) => !judged || Number.isNaN(g) || Math.abs(g - spec.bandwidthBps) / spec.bandwidthBps <= tolerance;
  const goodput = { downBps: r.downGoodputBps, upBps: r.upGoodputBps, tolerance, judged, ok: within(r.downGoodputBps) && within(r.upGoodputBps) };
  const c2s = lossOf(r.udp.clientToServer.sent, r.udp.clientToServer.received, overflow.clientToServer, spec.lossRate);
  const s2c = lossOf(r.udp.serverToClient.sent, r.udp.serverToClient.received, overflow.serverToClient, spec.lossRate);
  const loss = { clientToServer: c2s, serverToClient: s2c, ok: c2s.ok && s2c.ok };
  return { spec, rtt, goodput, loss, ok: rtt.ok && goodput.ok && loss.ok };
}

/** ICMP echoes from the client's side to the server's (rttping: kernel timestamps, real-time priority). */
async function rttping(link: Link, count: number, rttMs: number): Promise<{ rttMs: number[]; lost: number }> {
  const bin = await nativeBinary('rttping');
  const w = link.wrap('client', bin, [link.serverAddr, String(count), '10', String(Math.max(1000, 3 * rttMs))]);
  const p = spawn(w.cmd, w.args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  p.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
  p.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
  const code = await new Promise<number | null>((resolve) => p.on('close', resolve));
  if (code !== 0) throw new ShaperError(`rttping failed: ${err.trim().split('\n')[0] ?? code}`);
  return parseRttping(out);
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
    const ping = await rttping(link, o.pings ?? 60, spec.rttMs);
    await waitForLine(server, (l) => l === 'ready', 'probe server');
    const plan = defaultPlan(spec, o, link.clientAddr);
    const overflowBefore = { server: rcvbufErrorsIn(link, 'server'), client: rcvbufErrorsIn(link, 'client') };
    const client = node('client', ['client', link.serverAddr, String(PORT), JSON.stringify(plan)]);
    const line = await waitForLine(client, (l) => l.startsWith('{'), 'probe client');
    const result = JSON.parse(line) as ProbeResult;
    const overflow = { clientToServer: rcvbufErrorsIn(link, 'server') - overflowBefore.server, serverToClient: rcvbufErrorsIn(link, 'client') - overflowBefore.client };
    const delayLine = await link.delayLineStats();
    const cc = link.wrap('server', 'cat', ['/proc/sys/net/ipv4/tcp_congestion_control']);
    const congestionControl = execFileSync(cc.cmd, cc.args, { encoding: 'utf8' }).trim();
    return { ...judge(spec, ping, result, o, overflow), backend: link.backend, realtime: link.delayLine?.realtime, congestionControl, ...(delayLine ? { delayLine } : {}) };
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
    `backend ${r.backend}${r.realtime === undefined ? '' : r.realtime ? ' (delay line at real-time priority)' : ' (delay line NOT at real-time priority)'}; TCP congestion control ${r.congestionControl}`,
    `${mark(r.rtt.ok)} rtt      p50 ${r.rtt.p50.toFixed(2)} ms, p99 ${r.rtt.p99.toFixed(2)} ms over ${r.rtt.samples} ICMP echoes${r.rtt.lost ? ` (${r.rtt.lost} lost)` : ''}; target ${r.spec.rttMs} ± ${r.rtt.toleranceMs} ms (p50)`,
    `${mark(r.goodput.ok)} goodput  down ${mbit(r.goodput.downBps)}, up ${mbit(r.goodput.upBps)}; ${r.goodput.judged ? `target ${mbit(r.spec.bandwidthBps)} ± ${r.goodput.tolerance * 100}% (TCP payload over IP rate is at most 96.5%)` : `rate ${mbit(r.spec.bandwidthBps)} (not judged under loss)`}`,
    `${mark(l.ok)} loss     client->server ${l.clientToServer.lost}/${l.clientToServer.sent} (${pct(l.clientToServer.rate)}), server->client ${l.serverToClient.lost}/${l.serverToClient.sent} (${pct(l.serverToClient.rate)}); target ${pct(r.spec.lossRate)}, accepted ${l.clientToServer.accepted.min}..${l.clientToServer.accepted.max} lost${l.clientToServer.receiverOverflow + l.serverToClient.receiverOverflow ? ` (not counted: ${l.clientToServer.receiverOverflow} + ${l.serverToClient.receiverOverflow} arrived at a full socket buffer)` : ''}`,
  ];
  if (r.delayLine) lines.push(`delay line release lateness p50 ${r.delayLine.releaseLatenessMs.p50.toFixed(2)} ms, p99 ${r.delayLine.releaseLatenessMs.p99.toFixed(2)} ms (10 µs buckets, upper edges)`);
  lines.push(r.ok ? 'all targets met' : 'targets NOT met');
  return lines.join('\n');
}
