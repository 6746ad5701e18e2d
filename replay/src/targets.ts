/**
 * Where a timed load goes: the replay on loopback in this process, or the replay server in a shaped
 * link's server namespace with Chromium in its client namespace. Both answer the same questions.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ReplayArchive } from './archive.ts';
import type { DelayRecord } from './delays.ts';
import { startReplayServer, type ReplayStats } from './server.ts';
import { startRemoteReplay } from './shaped.ts';

export interface ReplayTarget {
  pageUrl: string;
  origins: { scheme: string }[];
  chromiumArgs: string[];
  /** How to start Chromium (shaped: inside the client namespace). */
  wrap?: (cmd: string, args: string[]) => { cmd: string; args: string[] };
  /** One line about where the page is served from. */
  note: string;
  /** The shaper backend, for shaped targets. */
  backend?: string;
  stats(): Promise<ReplayStats>;
  /**
   * A fresh start for the next load: counts restarted, open connections closed (after the cache warm-up, the
   * measured load opens its own connections and pays their set-up, as a fresh browser does).
   */
  reset(): Promise<void>;
  close(): Promise<void>;
}

/** The replay on loopback, in this process. */
export async function localTarget(archive: ReplayArchive, protocol: 'h1' | 'h2' | undefined, pace = false): Promise<ReplayTarget> {
  const server = await startReplayServer(archive, { protocol, pace });
  return {
    pageUrl: server.pageUrl, origins: server.origins, chromiumArgs: server.chromiumArgs, note: 'loopback',
    stats: async () => server.stats,
    reset: async () => server.freshStart(),
    close: () => server.close(),
  };
}

export interface ShapedTargetOptions {
  /** The pcp CLI entry (cli/bin/pcp.js): the child runs `pcp replay BUNDLE --serve --control`. */
  pcpBin: string;
  /** Server delays handed to the child (none: answer at once). */
  records: readonly DelayRecord[];
  protocol?: 'h1' | 'h2';
  /** Pace bodies as recorded (--pace). */
  pace?: boolean;
}

/** The replay server in a shaped link's server namespace, Chromium in its client namespace. */
export async function shapedTarget(bundle: string, spec: { bandwidthBps: number; rttMs: number; lossRate: number }, opts: ShapedTargetOptions): Promise<ReplayTarget> {
  const { openShapedLink, ShaperError } = await import('@pcp/shaper');
  let link;
  try {
    link = await openShapedLink({ bandwidthBps: spec.bandwidthBps, rttMs: spec.rttMs, lossRate: spec.lossRate });
  } catch (e) {
    if (e instanceof ShaperError) throw new Error(`cannot open the shaped link: ${e.message}`);
    throw e;
  }
  const tmp = mkdtempSync(join(tmpdir(), 'pcp-replay-shaped-'));
  try {
    const args: string[] = [];
    if (opts.records.length === 0) args.push('--no-server-delays');
    else {
      writeFileSync(join(tmp, 'delays.json'), JSON.stringify(opts.records));
      args.push('--server-delays', join(tmp, 'delays.json'));
    }
    if (opts.protocol) args.push('--protocol', opts.protocol);
    if (opts.pace) args.push('--pace');
    const remote = await startRemoteReplay(link, opts.pcpBin, bundle, args);
    const l = link;
    return {
      pageUrl: remote.ready.pageUrl, origins: remote.ready.origins, chromiumArgs: remote.ready.chromiumArgs,
      wrap: (cmd, a) => l.wrap('client', cmd, a),
      backend: l.backend,
      note: `${l.backend} backend; server ${l.serverAddr}, Chromium ${l.clientAddr}`,
      stats: () => remote.stats(),
      reset: () => remote.freshStart(),
      async close() {
        await remote.close();
        await l.close();
        rmSync(tmp, { recursive: true, force: true });
      },
    };
  } catch (e) {
    await link.close();
    rmSync(tmp, { recursive: true, force: true });
    throw new Error(`the replay server did not start in the shaped link: ${(e as Error).message}`);
  }
}
