/**
 * openShapedLink: two network namespaces (client, server) joined by a link with a chosen rate, RTT and
 * loss. See shaper/README.md for the picture. Everything the link creates lives inside its two
 * namespaces, so deleting them (and stopping the delay line) removes it all.
 */
import { existsSync, readFileSync } from 'node:fs';
import { chooseBackend, type Backend } from './backend.ts';
import { track, untrack } from './cleanup.ts';
import { DelayLine, type DelayLineStats } from './delay-line.ts';
import { missingCapabilities, ShaperError } from './errors.ts';
import { killNamespacePids, namespaceNames, reapStale } from './names.ts';
import { run, runSyncQuiet } from './sys.ts';
import { netemArgs, oneWayDelayUs, tbfArgs, tbfParams } from './tc-params.ts';

export interface LinkSpec {
  bandwidthBps: number;
  rttMs: number;
  /** 0..1, each direction */
  lossRate?: number;
  seed?: number;
}

export interface ShapedLink {
  readonly spec: LinkSpec;
  readonly backend: 'netem' | 'delay-line';
  /** name usable with `ip netns exec` */
  readonly clientNetns: string;
  readonly serverNetns: string;
  /** IPv4 of the client side of the link */
  readonly clientAddr: string;
  /** IPv4 of the server side */
  readonly serverAddr: string;
  /** argv that runs cmd inside a side's namespace (for spawn, e.g. Chromium over a DevTools pipe). */
  wrap(side: 'client' | 'server', cmd: string, args: string[]): { cmd: string; args: string[] };
  /** idempotent; removes namespaces, devices, processes */
  close(): Promise<void>;
}

/** The link's device name inside each namespace (a TUN device, or a veth end for netem). */
export const LINK_DEVICE = 'pcp0';
export const CLIENT_ADDR = '10.64.0.1';
export const SERVER_ADDR = '10.64.0.2';

let linkCounter = 0;

export function validateSpec(spec: LinkSpec): Required<LinkSpec> {
  const { bandwidthBps, rttMs } = spec;
  const lossRate = spec.lossRate ?? 0;
  const seed = spec.seed ?? 1;
  if (!(Number.isFinite(bandwidthBps) && bandwidthBps >= 8000 && bandwidthBps <= 10e9)) throw new ShaperError(`bandwidth must be between 8 kbit/s and 10 Gbit/s, got ${bandwidthBps} bit/s`);
  if (!(Number.isFinite(rttMs) && rttMs >= 0 && rttMs <= 10_000)) throw new ShaperError(`rtt must be between 0 and 10 s, got ${rttMs} ms`);
  if (!(lossRate >= 0 && lossRate < 1)) throw new ShaperError(`loss must be in [0, 1), got ${lossRate}`);
  if (!(Number.isSafeInteger(seed) && seed >= 0)) throw new ShaperError(`seed must be a non-negative integer, got ${seed}`);
  return { bandwidthBps, rttMs, lossRate, seed };
}

function preflight(): void {
  if (process.platform !== 'linux') throw new ShaperError('the shaper needs Linux (network namespaces)');
  const status = readFileSync('/proc/self/status', 'utf8');
  const capEff = /^CapEff:\s*([0-9a-f]+)/m.exec(status)?.[1] ?? '0';
  const missing = missingCapabilities(capEff);
  if (missing.length) throw new ShaperError(`the shaper needs root (missing ${missing.join(' and ')}; run as root)`);
}

export class Link implements ShapedLink {
  readonly clientAddr = CLIENT_ADDR;
  readonly serverAddr = SERVER_ADDR;
  delayLine: DelayLine | undefined;
  private closing: Promise<void> | undefined;
  private closed = false;

  constructor(
    readonly spec: LinkSpec,
    readonly backend: Backend,
    readonly clientNetns: string,
    readonly serverNetns: string,
  ) {}

  wrap(side: 'client' | 'server', cmd: string, args: string[]): { cmd: string; args: string[] } {
    return { cmd: 'ip', args: ['netns', 'exec', side === 'client' ? this.clientNetns : this.serverNetns, cmd, ...args] };
  }

  /** The delay line's counters (undefined with netem). */
  async delayLineStats(): Promise<DelayLineStats | undefined> {
    return this.delayLine?.stats();
  }

  close(): Promise<void> {
    this.closing ??= this.closeAsync();
    return this.closing;
  }

  private async closeAsync(): Promise<void> {
    if (this.closed) return;
    await this.delayLine?.stop();
    for (const ns of [this.clientNetns, this.serverNetns]) {
      await killNamespacePids(ns);
      await run(['ip', 'netns', 'del', ns]).catch(() => undefined);
    }
    this.closed = true;
    untrack(this);
  }

  closeSync(): void {
    if (this.closed) return;
    this.delayLine?.stopSync();
    for (const ns of [this.clientNetns, this.serverNetns]) {
      for (const pid of runSyncQuiet(['ip', 'netns', 'pids', ns]).split(/\s+/).filter(Boolean).map(Number)) {
        try {
          if (pid !== process.pid) process.kill(pid, 'SIGKILL');
        } catch {
          // gone
        }
      }
      runSyncQuiet(['ip', 'netns', 'del', ns]);
    }
    this.closed = true;
    untrack(this);
  }
}

export async function openShapedLink(spec: LinkSpec): Promise<ShapedLink> {
  const s = validateSpec(spec);
  preflight();
  await reapStale();
  const backend = await chooseBackend();
  if (backend === 'delay-line' && !existsSync('/dev/net/tun')) throw new ShaperError('no TUN device (/dev/net/tun is missing; load the tun module)');
  const names = namespaceNames(process.pid, linkCounter++);
  const link = new Link({ ...spec }, backend, names.client, names.server);
  track(link);
  try {
    for (const ns of [names.client, names.server]) {
      await run(['ip', 'netns', 'add', ns]);
      await run(['ip', '-n', ns, 'link', 'set', 'lo', 'up']);
    }
    if (backend === 'delay-line') {
      link.delayLine = await DelayLine.start({
        clientNetnsPath: `/run/netns/${names.client}`,
        serverNetnsPath: `/run/netns/${names.server}`,
        device: LINK_DEVICE,
        oneWayDelayUs: oneWayDelayUs(s.rttMs),
        lossRate: s.lossRate,
        seed: s.seed,
      });
    } else {
      await run(['ip', '-n', names.client, 'link', 'add', LINK_DEVICE, 'type', 'veth', 'peer', 'name', LINK_DEVICE, 'netns', names.server]);
    }
    const tbf = tbfParams(s.bandwidthBps, s.rttMs);
    const sides = [
      { ns: names.client, local: CLIENT_ADDR, peer: SERVER_ADDR },
      { ns: names.server, local: SERVER_ADDR, peer: CLIENT_ADDR },
    ];
    for (const { ns, local, peer } of sides) {
      await run(['ip', '-n', ns, 'link', 'set', LINK_DEVICE, 'addrgenmode', 'none']); // no IPv6 chatter
      await run(['ip', '-n', ns, 'addr', 'add', local, 'peer', peer, 'dev', LINK_DEVICE]);
      await run(['ip', '-n', ns, 'link', 'set', LINK_DEVICE, 'up']);
      await run(['ip', '-n', ns, 'route', 'add', 'default', 'dev', LINK_DEVICE]);
      await run(['tc', '-n', ns, ...tbfArgs(LINK_DEVICE, tbf)]);
      if (backend === 'netem') await run(['tc', '-n', ns, ...netemArgs(LINK_DEVICE, tbf, s.rttMs / 2, s.lossRate)]);
    }
    return link;
  } catch (e) {
    await link.close();
    throw e;
  }
}
