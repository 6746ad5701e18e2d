/**
 * Replaying a recorded bundle, shared by `pcp replay` and `pcp profile --bandwidth/--rtt`: the shaped
 * link's words, the server-delay records of the recording, and one traced load of the replayed page
 * (loopback, or through a shaped link) into a new bundle.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CaptureOptions } from '@pcp/profiler';
import { parseLinkSpec } from '@pcp/shaper';
import { CliError, UsageError, str, type Parsed } from './kit.ts';

/** A shaped link as asked for on the command line. */
export interface ShapedSpec {
  bandwidthBps: number;
  rttMs: number;
  lossRate: number;
  /** The words as given, for messages: "5mbit, RTT 40ms, loss 1%". */
  text: string;
}

/** --bandwidth, --rtt, --loss: undefined when none is given; both of the first two are needed. */
export function linkSpec(p: Parsed): ShapedSpec | undefined {
  const bw = str(p, 'bandwidth');
  const rtt = str(p, 'rtt');
  const loss = str(p, 'loss');
  if (bw === undefined && rtt === undefined && loss === undefined) return undefined;
  if (bw === undefined || rtt === undefined) throw new UsageError('a shaped load needs both --bandwidth and --rtt');
  try {
    const spec = parseLinkSpec({ bandwidth: bw, rtt, loss });
    return { bandwidthBps: spec.bandwidthBps, rttMs: spec.rttMs, lossRate: spec.lossRate ?? 0, text: `${bw}, RTT ${rtt}${loss ? `, loss ${loss}` : ''}` };
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

export type DelayRecords = { method?: string; url: string; delayMs: number | null; estimated?: boolean }[];

/** The delay records: FILE (the JSON of pcp delays), else measured from the bundle's capture; none when off. */
export async function serverDelays(bundle: string, file: string | undefined, off: boolean): Promise<DelayRecords> {
  if (off) return [];
  const { delayRecordsOf } = await import('@pcp/replay');
  // A synthesized site (pcp synthesize) carries its graph's server delays.
  const { SYNTH_FILES } = await import('@pcp/synth');
  if (file === undefined && existsSync(join(bundle, SYNTH_FILES.serverDelays))) file = join(bundle, SYNTH_FILES.serverDelays);
  if (file === undefined) {
    const { BUNDLE_FILES } = await import('@pcp/profiler/bundle');
    const pcap = join(bundle, BUNDLE_FILES.pcap);
    if (!existsSync(pcap)) return [];
    const { measureServerDelays } = await import('@pcp/graph-builder');
    let json: unknown;
    try {
      json = await measureServerDelays(bundle);
    } catch (e) {
      throw new CliError(`server delays could not be measured from ${pcap}: ${(e as Error).message} (--no-server-delays to replay without them)`);
    }
    return delayRecordsOf(json);
  }
  try {
    return delayRecordsOf(JSON.parse(readFileSync(file, 'utf8')));
  } catch (e) {
    throw new CliError(`${file}: ${(e as Error).message}`);
  }
}

/** The bundle's archive.har; a missing or bad archive is a one-line CliError. */
export async function readBundleArchive(bundle: string) {
  const { readArchive, ArchiveError } = await import('@pcp/replay');
  try {
    return readArchive(bundle);
  } catch (e) {
    if (e instanceof ArchiveError) throw new CliError(e.message);
    throw e;
  }
}

export interface ReplayProfileOptions {
  /** Through this shaped link; on loopback when absent. */
  shaped?: ShapedSpec;
  records: DelayRecords;
  protocol?: 'h1' | 'h2';
  pace?: boolean;
  /** Put the archive's cache hits in the browser's cache before the load (default true). */
  cacheWarmUp?: boolean;
  chromium?: string;
  timeoutMs: number;
  /** Recorded in meta.json's conditions: where the replayed recording is, relative to the new bundle. */
  replayedFrom?: string;
  /** Further capture options (viewport, user agent, ...) for the traced load. */
  capture?: CaptureOptions;
}

/** The pcp CLI entry, which a shaped replay starts in the link's server namespace. */
export const PCP_BIN = fileURLToPath(new URL('../bin/pcp.js', import.meta.url));

/**
 * One traced load of BUNDLE's replayed page into the bundle PROFILEDIR (as pcp profile), the link's
 * conditions in its meta.json. Returns the new bundle's meta and the replay server's request counts.
 */
export async function profileReplay(bundle: string, profileDir: string, o: ReplayProfileOptions) {
  const { localTarget, shapedTarget, cacheHitUrls, warmUpDocumentUrl, assignDelays } = await import('@pcp/replay');
  const archive = await readBundleArchive(bundle);
  // On loopback the server is this process's: it serves the records' delays (a shaped one is handed them).
  if (!o.shaped) assignDelays(archive.entries, o.records);
  const target = o.shaped
    ? await shapedTarget(bundle, o.shaped, { pcpBin: PCP_BIN, records: o.records, protocol: o.protocol, pace: o.pace })
    : await localTarget(archive, o.protocol, o.pace);
  try {
    if (o.shaped) console.error(`shaped link: ${o.shaped.text} (${target.note})`);
    const { capturePage } = await import('@pcp/profiler');
    const conditions = o.shaped
      ? { bandwidthBps: o.shaped.bandwidthBps, rttMs: o.shaped.rttMs, lossRate: o.shaped.lossRate, backend: target.backend, ...(o.replayedFrom ? { replayedFrom: o.replayedFrom } : {}) }
      : undefined;
    // What the recorded browser took from its cache is in the replay's browser cache before the load;
    // the server's counts then restart, so they are the measured load's.
    const warmUrls = o.cacheWarmUp === false ? [] : cacheHitUrls(archive);
    const warmCache = warmUrls.length ? { documentUrl: warmUpDocumentUrl(target.pageUrl), urls: warmUrls, done: () => target.reset() } : undefined;
    const { meta } = await capturePage(target.pageUrl, profileDir, { ...o.capture, warmCache, chromiumArgs: [...(o.capture?.chromiumArgs ?? []), ...target.chromiumArgs], wrap: target.wrap, executablePath: o.chromium, timeoutMs: o.timeoutMs, conditions });
    return { meta, stats: await target.stats(), origins: target.origins };
  } finally {
    await target.close();
  }
}
