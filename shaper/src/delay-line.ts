/** The delay-line process: spawn, wait until its TUN devices exist, ask for statistics, stop. */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { ShaperError } from './errors.ts';
import { nativeBinary } from './native.ts';

export interface DirectionStats {
  packetsIn: number;
  bytesIn: number;
  packetsOut: number;
  droppedLoss: number;
  droppedQueueFull: number;
  droppedTooBig: number;
  writeErrors: number;
}

export interface DelayLineStats {
  realtime: boolean;
  clientToServer: DirectionStats;
  serverToClient: DirectionStats;
  /** How late packets left the line compared with their due time (10 µs histogram buckets). */
  releaseLatenessMs: { p50: number; p99: number; count: number };
}

export interface DelayLineOptions {
  clientNetnsPath: string;
  serverNetnsPath: string;
  device: string;
  oneWayDelayUs: number;
  lossRate: number;
  seed: number;
}

export class DelayLine {
  private readonly statsWaiters: ((s: DelayLineStats) => void)[] = [];
  private exited = false;
  lastStats: DelayLineStats | undefined;

  private constructor(
    private readonly proc: ChildProcess,
    /** Whether it runs at real-time priority (SCHED_FIFO). */
    readonly realtime: boolean,
  ) {
    proc.on('exit', () => {
      this.exited = true;
    });
  }

  get pid(): number | undefined {
    return this.proc.pid;
  }

  static async start(o: DelayLineOptions): Promise<DelayLine> {
    const bin = await nativeBinary('delayline');
    const args = [o.clientNetnsPath, o.serverNetnsPath, o.device, String(o.oneWayDelayUs), String(o.lossRate), String(o.seed), String(process.pid)];
    const proc = spawn(bin, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    proc.stderr!.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    const lines = createInterface({ input: proc.stdout! });
    const realtime = await new Promise<boolean>((resolve, reject) => {
      const fail = (why: string) => reject(new ShaperError(`delay line did not start: ${why}`));
      proc.once('error', (e) => fail(e.message));
      proc.once('exit', (code, sig) => fail(stderr.trim().split('\n')[0] || `exit ${code ?? sig}`));
      lines.once('line', (l) => {
        const m = /^ready rt=([01])$/.exec(l);
        if (m) resolve(m[1] === '1');
        else fail(`unexpected output '${l}'`);
      });
    });
    proc.removeAllListeners('exit');
    const line = new DelayLine(proc, realtime);
    lines.on('line', (l) => line.onLine(l));
    // The link must not keep the event loop alive by itself: a program that forgets close() still
    // exits, and the exit handler closes the link.
    proc.unref();
    for (const s of [proc.stdin, proc.stdout, proc.stderr]) (s as unknown as { unref?: () => void } | null)?.unref?.();
    return line;
  }

  private onLine(l: string): void {
    if (!l.startsWith('stats ')) return;
    const s = JSON.parse(l.slice(6)) as DelayLineStats;
    this.lastStats = s;
    for (const w of this.statsWaiters.splice(0)) w(s);
  }

  /** The counters so far (packets in, dropped by loss or a full ring, release lateness). */
  stats(): Promise<DelayLineStats> {
    if (this.exited) return Promise.reject(new ShaperError('the delay line has exited'));
    const out = this.proc.stdout as unknown as { ref(): void; unref(): void };
    out.ref(); // keep the event loop alive until the answer comes
    return new Promise((resolve) => {
      this.statsWaiters.push((s) => {
        out.unref();
        resolve(s);
      });
      this.proc.kill('SIGUSR1');
    });
  }

  /** Stops the process and waits for it (SIGKILL after 2 s). */
  async stop(): Promise<void> {
    if (this.exited || this.proc.exitCode !== null || this.proc.signalCode !== null) return;
    const done = new Promise<void>((resolve) => this.proc.once('exit', () => resolve()));
    this.proc.kill('SIGTERM');
    const timer = setTimeout(() => this.proc.kill('SIGKILL'), 2000);
    await done;
    clearTimeout(timer);
  }

  stopSync(): void {
    if (!this.exited) this.proc.kill('SIGKILL');
  }
}
