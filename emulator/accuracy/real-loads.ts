/**
 * accuracy:emulator's real loads: the recorded pages replayed through one shaped link per condition and
 * loaded in real Chromium, round after round, each load logged as it finishes (see loadReal).
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Graph } from '@pcp/graph-builder';
import type { Condition } from './grid-stats.ts';
import { appendLoad, cellKey, loadsByCell, readLoadLog, type LoggedLoad } from './load-log.ts';
import type { PageSpec } from './pages.ts';
import { writeReplaySet } from './replay-set.ts';

const PCP = fileURLToPath(new URL('../../cli/bin/pcp.js', import.meta.url));
/** A page whose loads fail this often in one session is given up for the rest of it. */
const MAX_FAILURES = 3;

export interface Recording {
  page: PageSpec;
  bundle: string;
  graph: Graph;
  delays: string;
  /** The recorded page URL (the replay serves it at the recorded origin). */
  url: string;
}

/** Where a run's wall time went (s). */
export interface WallTime {
  record: number;
  /** Of which: Chromium captures, pcp build, pcp delays. */
  capture: number;
  build: number;
  delays: number;
  linkSetup: number;
  chromiumStarts: number;
  loads: number;
}

/**
 * The replay writes each body on its recorded schedule (`pcp replay --pace`), as the emulator produces it
 * (http/server-pacing.ts): the recordings are made on loopback, where a body's pauses are its server's.
 * Unpaced, r03-parse-chunks' trickled document replayed 7x faster than its origin served it (replay/README.md).
 */
export const REPLAY_PACE = ['--pace'];

/**
 * Real loads: one shaped link per condition, open for the whole phase, with one replay server in its
 * server namespace serving every page (the recordings merged into one replay set); then `runs` rounds,
 * each loading every page under every condition once, so that a slow spell of the shared machine
 * spreads over all of them. Per link and round, one Chromium in the client namespace loads every page,
 * each in a fresh incognito context checked cold (or, `freshBrowser`, a fresh Chromium per load). Each
 * load is appended to the work directory's log as it finishes; cells the log already has enough loads
 * of are skipped. A page whose loads keep failing is given up, the rest go on.
 */
export async function loadReal(recordings: Recording[], conditions: Condition[], runs: number, cc: string, work: string, wall: WallTime, opts: { freshBrowser: boolean; budgetMs: number }) {
  const { freshBrowser, budgetMs } = opts;
  const { openShapedLink } = await import('@pcp/shaper');
  const { startRemoteReplay, loadOnce } = await import('@pcp/replay');
  const { openLoadBrowser, warmReason } = await import('./context-load.ts');
  type Link = Awaited<ReturnType<typeof openShapedLink>>;
  type Remote = Awaited<ReturnType<typeof startRemoteReplay>>;
  // Warm loads (the cold check failed) do not count: their cell is loaded again.
  const done = loadsByCell(readLoadLog(work).filter((l) => !l.warm));
  const count = (page: string, c: Condition): number => done.get(cellKey(page, c.name))?.length ?? 0;
  /** pageSeconds: the loads' own time, navigation start to the load event, summed. */
  const result = { loads: 0, loadsPerMinute: 0, pageSeconds: 0, starts: 0, cc, backend: 'none', gaveUp: [] as string[], stoppedEarly: false };
  const needed = conditions.filter((c) => recordings.some((r) => count(r.page.name, c) < runs));
  if (needed.length === 0) return result;

  const set = writeReplaySet(join(work, 'replay-set'), recordings.map((r) => ({ name: r.page.name, bundle: r.bundle, delays: r.delays })));
  const links = new Map<string, Link>();
  const remotes = new Map<string, Remote>();
  const closeAll = async (): Promise<void> => {
    await Promise.allSettled([...remotes.values()].map((r) => r.close()));
    await Promise.allSettled([...links.values()].map((l) => l.close()));
  };
  const onSignal = (): void => {
    void closeAll().then(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const failures = new Map<string, number>();
  try {
    let t = Date.now();
    for (const c of needed) {
      const link = await openShapedLink({ bandwidthBps: c.bandwidthBps, rttMs: c.rttMs, lossRate: c.lossRate });
      links.set(c.name, link);
      result.cc = setCongestionControl(link, cc);
      result.backend = link.backend;
      remotes.set(c.name, await startRemoteReplay(link, PCP, set.bundle, ['--server-delays', set.delays, '--protocol', c.protocol, ...REPLAY_PACE]));
      process.stderr.write(`link ${c.name} open (${link.backend}), one replay server for ${recordings.length} pages\n`);
    }
    wall.linkSetup = (Date.now() - t) / 1000;
    const t0 = Date.now();
    const overBudget = (): boolean => (result.stoppedEarly ||= Date.now() - t0 > budgetMs);
    for (let k = 0; k < runs && !overBudget(); k++) {
      for (const c of needed) {
        if (overBudget()) break;
        const todo = recordings.filter((r) => count(r.page.name, c) <= k && (failures.get(r.page.name) ?? 0) < MAX_FAILURES);
        if (todo.length === 0) continue;
        const link = links.get(c.name)!;
        const remote = remotes.get(c.name)!;
        const wrap = (cmd: string, a: string[]) => link.wrap('client', cmd, a);
        t = Date.now();
        const browser = freshBrowser ? undefined : await openLoadBrowser({ chromiumArgs: remote.ready.chromiumArgs, wrap });
        if (browser) result.starts++;
        wall.chromiumStarts += (Date.now() - t) / 1000;
        try {
          for (const r of todo) {
            if (overBudget()) break;
            const key = cellKey(r.page.name, c.name);
            process.stderr.write(`\rround ${k + 1}/${runs}: ${key}`.padEnd(80));
            await remote.freshStart();
            try {
              let entry: LoggedLoad;
              if (browser) {
                const got = await browser.load(r.url, 120_000);
                entry = { page: r.page.name, condition: c.name, load: got.loadTime, dcl: got.domContentLoadedTime, misses: 0, protocol: got.cold.protocol };
                const warm = warmReason(got.cold, r.url.startsWith('https:'));
                if (warm) entry.warm = warm;
              } else {
                t = Date.now();
                const got = await loadOnce(r.url, { chromiumArgs: remote.ready.chromiumArgs, wrap, timeoutMs: 120_000 });
                result.starts++;
                entry = { page: r.page.name, condition: c.name, load: got.loadTime, dcl: got.domContentLoadedTime, misses: 0 };
              }
              entry.misses = (await remote.stats()).misses.length;
              appendLoad(work, entry);
              result.pageSeconds += entry.load / 1000;
              if (!entry.warm) (done.get(key) ?? done.set(key, []).get(key)!).push(entry);
              result.loads++;
            } catch (e) {
              const n = (failures.get(r.page.name) ?? 0) + 1;
              failures.set(r.page.name, n);
              console.log(`\n${key} run ${k + 1}: ${(e as Error).message}${n >= MAX_FAILURES ? `; ${r.page.name} given up after ${n} failed loads` : ''}`);
              if (n >= MAX_FAILURES) result.gaveUp.push(r.page.name);
            }
          }
        } finally {
          await browser?.close();
        }
      }
    }
    process.stderr.write('\n');
    wall.loads = (Date.now() - t0) / 1000;
    result.loadsPerMinute = result.loads / (wall.loads / 60);
    return result;
  } finally {
    await closeAll();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/**
 * The link's namespaces inherit the machine's TCP congestion control (bbr here, which ignores random
 * loss); the emulator models NewReno or CUBIC, so both ends use `cc` (shaper/README.md). A namespace
 * may only pick an algorithm in the machine's net.ipv4.tcp_allowed_congestion_control (here reno and
 * bbr: cubic is refused), hence reno by default. Both ends also stop caching TCP metrics
 * (tcp_no_metrics_save): otherwise a connection starts from the ssthresh and RTT the previous load's
 * connections to the same address left, and no load after the first would be cold. Returns the
 * congestion control in force on the server side.
 */
function setCongestionControl(link: { wrap(side: 'client' | 'server', cmd: string, args: string[]): { cmd: string; args: string[] } }, cc: string): string {
  for (const side of ['server', 'client'] as const) {
    const settings = ['net.ipv4.tcp_no_metrics_save=1', ...(cc !== 'inherit' ? [`net.ipv4.tcp_congestion_control=${cc}`] : [])];
    const w = link.wrap(side, 'sysctl', ['-q', '-w', ...settings]);
    try {
      execFileSync(w.cmd, w.args, { stdio: ['ignore', 'ignore', 'pipe'] });
    } catch (e) {
      throw new Error(`cannot set ${settings.join(' ')} in the link: ${String((e as { stderr?: Buffer }).stderr ?? e).trim()}`);
    }
  }
  const r = link.wrap('server', 'cat', ['/proc/sys/net/ipv4/tcp_congestion_control']);
  return execFileSync(r.cmd, r.args, { encoding: 'utf8' }).trim();
}
