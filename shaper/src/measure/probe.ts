/**
 * The two ends of a shaper check, each run inside one side's namespace (node --import tsx probe.ts):
 *
 *   probe.ts server HOST PORT          TCP and UDP on HOST:PORT; prints "ready"; serves the requests below
 *   probe.ts client HOST PORT JSON     runs the measurements in JSON (ProbePlan); prints one ProbeResult line
 *
 * Everything goes through real sockets across the link (the RTT is rttping's, see native/rttping.c).
 * Per TCP connection the client's first line:
 *   down MS                the server sends as fast as TCP lets it until the client hangs up
 *   up MS WARMUP_MS        the client sends; the server measures goodput over MS and answers in JSON
 *   udp-count              the server answers how many distinct UDP probes it received, and resets
 *   udp-send N PPS PORT    the server sends N UDP probes to the client's PORT, then answers "done"
 */
import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { connect, createServer, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { goodputBps, type ByteSample } from './stats.ts';

export interface ProbePlan {
  seconds: number;
  warmupMs: number;
  udpCount: number;
  udpPps: number;
  udpBytes: number;
  /** how long to wait for the last UDP probes (the RTT plus a margin) */
  udpSettleMs: number;
  /** the client's own address, for UDP probes sent to it */
  clientHost: string;
}

export interface ProbeResult {
  downGoodputBps: number;
  upGoodputBps: number;
  udp: { clientToServer: { sent: number; received: number }; serverToClient: { sent: number; received: number } };
}

const CHUNK = Buffer.alloc(64 * 1024, 0x61);

/** Sends n UDP probes at pps, in bursts of at most 20; falling behind shifts the schedule (no catch-up). */
async function sendPaced(n: number, pps: number, size: number, send: (b: Buffer) => void): Promise<void> {
  let start = performance.now();
  let sent = 0;
  while (sent < n) {
    let due = Math.min(n, Math.floor(((performance.now() - start) / 1000) * pps) + 1);
    if (due - sent > 20) {
      start += ((due - sent - 20) / pps) * 1000;
      due = sent + 20;
    }
    while (sent < due) {
      const b = Buffer.alloc(size);
      b.writeUInt32BE(sent++, 0);
      send(b);
    }
    await sleep(2);
  }
}

function firstLine(sock: Socket): Promise<{ line: string; rest: Buffer }> {
  return new Promise((resolve, reject) => {
    let buf = Buffer.alloc(0);
    const onData = (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      const i = buf.indexOf(0x0a);
      if (i >= 0) {
        sock.off('data', onData);
        sock.pause();
        resolve({ line: buf.subarray(0, i).toString(), rest: buf.subarray(i + 1) });
      }
    };
    sock.on('data', onData);
    sock.once('end', () => reject(new Error('no request')));
    sock.once('error', reject);
  });
}

function serve(host: string, port: number): void {
  const udp = createSocket({ type: 'udp4', recvBufferSize: 4 << 20 });
  const seen = new Set<number>();
  udp.on('message', (m) => seen.add(m.readUInt32BE(0)));
  const server = createServer((sock) => {
    sock.setNoDelay(true);
    sock.on('error', () => undefined);
    firstLine(sock).then(
      async ({ line, rest }) => {
        const [cmd, ...a] = line.split(' ');
        if (cmd === 'down') {
          const write = () => {
            while (!sock.destroyed && sock.write(CHUNK));
          };
          sock.on('drain', write);
          write();
        } else if (cmd === 'up') {
          const ms = Number(a[0]);
          const warmup = Number(a[1]);
          const samples: ByteSample[] = [];
          let bytes = 0;
          const t0 = performance.now();
          const add = (d: Buffer) => {
            bytes += d.length;
            samples.push([performance.now(), bytes]);
            if (samples.length > 1 && performance.now() - samples[0]![0] >= ms) {
              sock.off('data', add);
              sock.end(`${JSON.stringify({ goodputBps: goodputBps(samples, warmup), bytes, ms: performance.now() - t0 })}\n`);
            }
          };
          if (rest.length) add(rest);
          sock.on('data', add);
          sock.resume();
        } else if (cmd === 'udp-count') {
          const received = [...seen].length;
          seen.clear();
          sock.end(`${JSON.stringify({ received })}\n`);
        } else if (cmd === 'udp-send') {
          const [n, pps, clientPort] = a.map(Number) as [number, number, number];
          const size = Number(a[3] ?? 200);
          await sendPaced(n, pps, size, (b) => udp.send(b, clientPort, sock.remoteAddress));
          sock.end('done\n');
        } else {
          sock.destroy();
        }
      },
      () => sock.destroy(),
    );
  });
  udp.bind(port, host, () => server.listen(port, host, () => console.log('ready')));
}

function request(host: string, port: number, line: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const sock = connect({ host, port, noDelay: true }, () => sock.write(`${line}\n`));
    let out = '';
    sock.setEncoding('utf8');
    sock.on('data', (d: string) => (out += d));
    sock.on('end', () => resolve(out.trim()));
    sock.on('error', reject);
  });
}

function receiveDown(host: string, port: number, ms: number, warmupMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const samples: ByteSample[] = [];
    let bytes = 0;
    const sock = connect({ host, port, noDelay: true }, () => sock.write(`down ${ms}\n`));
    sock.on('data', (d: Buffer) => {
      bytes += d.length;
      samples.push([performance.now(), bytes]);
      if (performance.now() - samples[0]![0] >= ms) {
        sock.destroy();
        resolve(goodputBps(samples, warmupMs));
      }
    });
    sock.on('error', reject);
    sock.on('end', () => reject(new Error('bulk transfer ended early')));
  });
}

function sendUp(host: string, port: number, ms: number, warmupMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    let reply = '';
    let done = false;
    const sock = connect({ host, port, noDelay: true }, () => {
      sock.write(`up ${ms} ${warmupMs}\n`);
      write();
    });
    const write = () => {
      while (!done && sock.write(CHUNK));
    };
    sock.on('drain', write);
    sock.setEncoding('utf8');
    sock.on('data', (d: string) => {
      reply += d;
      if (reply.includes('\n')) {
        done = true;
        sock.destroy();
        resolve((JSON.parse(reply) as { goodputBps: number }).goodputBps);
      }
    });
    sock.on('error', (e) => (done ? undefined : reject(e)));
  });
}

async function udpBothWays(host: string, port: number, plan: ProbePlan): Promise<ProbeResult['udp']> {
  const sock: UdpSocket = createSocket({ type: 'udp4', recvBufferSize: 4 << 20 }); // clamped to rmem_max
  await new Promise<void>((r) => sock.bind(0, plan.clientHost, () => r()));
  const seen = new Set<number>();
  sock.on('message', (m) => seen.add(m.readUInt32BE(0)));
  await request(host, port, 'udp-count'); // reset
  await sendPaced(plan.udpCount, plan.udpPps, plan.udpBytes, (b) => sock.send(b, port, host));
  await sleep(plan.udpSettleMs);
  const up = JSON.parse(await request(host, port, 'udp-count')) as { received: number };
  await request(host, port, `udp-send ${plan.udpCount} ${plan.udpPps} ${sock.address().port} ${plan.udpBytes}`);
  await sleep(plan.udpSettleMs);
  sock.close();
  return { clientToServer: { sent: plan.udpCount, received: up.received }, serverToClient: { sent: plan.udpCount, received: seen.size } };
}

async function measure(host: string, port: number, plan: ProbePlan): Promise<ProbeResult> {
  const ms = plan.seconds * 1000;
  const downGoodputBps = ms > 0 ? await receiveDown(host, port, ms, plan.warmupMs) : NaN;
  const upGoodputBps = ms > 0 ? await sendUp(host, port, ms, plan.warmupMs) : NaN;
  const udp = plan.udpCount > 0 ? await udpBothWays(host, port, plan) : { clientToServer: { sent: 0, received: 0 }, serverToClient: { sent: 0, received: 0 } };
  return { downGoodputBps, upGoodputBps, udp };
}

const [role, host, portArg, planArg] = process.argv.slice(2);
if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('probe.ts')) {
  if (role === 'server' && host && portArg) serve(host, Number(portArg));
  else if (role === 'client' && host && portArg && planArg) {
    measure(host, Number(portArg), JSON.parse(planArg) as ProbePlan).then(
      (r) => console.log(JSON.stringify(r)),
      (e: Error) => {
        console.error(`probe: ${e.message}`);
        process.exit(1);
      },
    );
  } else {
    console.error('usage: probe.ts server HOST PORT | probe.ts client HOST PORT PLAN_JSON');
    process.exit(2);
  }
}
