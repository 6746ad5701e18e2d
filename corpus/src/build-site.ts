/**
 * The one unit of work of a corpus build: one URL into DIR/pages/<id>. Profile (K runs, the median
 * load kept), server delays from the capture (when --pcap), graph; status.json, then DONE last. A page
 * directory without DONE is cleared and rebuilt from scratch. The local pool, `pcp corpus build-site`
 * and the Dask driver's tasks all run this function.
 */
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { buildFromTrace, measureServerDelays, mergeServerDelays, parseServerDelays, readJsonFile, validateGraph, writeJsonFile } from '@pcp/graph-builder';
import type { BundleMeta } from '@pcp/profiler/bundle';
import { BUNDLE_FILES } from '@pcp/profiler/bundle';
import { finishPage, PAGE_FILES, type PageStatus } from './layout.ts';

export interface CaptureLike {
  (url: string, dir: string): Promise<{ meta: BundleMeta }>;
}

export interface SiteBuildOptions {
  /** Loads the page into a bundle directory (the profiler's capturePage with the corpus' options). */
  capture: CaptureLike;
  /** Page loads per site; the complete load with the median load time is kept (default 1). */
  runs?: number;
  /** Measure server delays from the bundle's capture when it has one (default true). */
  serverDelays?: boolean;
  analysisScope?: 'recorded' | 'normalised';
}

export interface SiteOutcome {
  status: PageStatus;
  warnings: string[];
}

/** The profiler's failure reason, as status.json and failures.jsonl give it. */
export function failureReason(meta: BundleMeta): string {
  return `${meta.endReason}: ${meta.message}`;
}

/** The run to keep: among complete loads, the one with the median load time (the lower middle one). */
export function medianRun(metas: readonly BundleMeta[]): number | undefined {
  const complete = metas.map((m, i) => ({ i, load: m.timings.loadMs })).filter((r) => metas[r.i]!.status === 'complete');
  if (complete.length === 0) return undefined;
  complete.sort((a, b) => (a.load ?? Infinity) - (b.load ?? Infinity));
  return complete[Math.floor((complete.length - 1) / 2)]!.i;
}

export async function buildSite(url: string, id: string, dir: string, opts: SiteBuildOptions, attempts = 1): Promise<SiteOutcome> {
  const startedAt = new Date().toISOString();
  const warnings: string[] = [];
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const done = (status: 'ok' | 'failed', reason?: string, runs?: PageStatus['runs']): SiteOutcome => {
    const st: PageStatus = { url, id, status, ...(reason ? { reason } : {}), attempts, startedAt, finishedAt: new Date().toISOString(), ...(runs ? { runs } : {}) };
    finishPage(dir, st);
    return { status: st, warnings };
  };
  const bundle = join(dir, PAGE_FILES.bundle);
  const k = Math.max(1, opts.runs ?? 1);
  const metas: BundleMeta[] = [];
  for (let r = 0; r < k; r++) metas.push((await opts.capture(url, k === 1 ? bundle : `${bundle}.run${r + 1}`)).meta);
  const runs = k > 1 ? metas.map((m) => ({ loadMs: m.timings.loadMs ?? null, status: m.status })) : undefined;
  const keep = medianRun(metas);
  if (keep === undefined) return done('failed', failureReason(metas.find((m) => m.status !== 'complete') ?? metas[0]!), runs);
  if (k > 1) {
    renameSync(`${bundle}.run${keep + 1}`, bundle);
    for (let r = 0; r < k; r++) rmSync(`${bundle}.run${r + 1}`, { recursive: true, force: true });
  }
  warnings.push(...metas[keep]!.warnings);

  const delaysFile = join(dir, PAGE_FILES.delays);
  if (opts.serverDelays !== false && existsSync(join(bundle, BUNDLE_FILES.pcap))) {
    try {
      writeJsonFile(delaysFile, await measureServerDelays(bundle), true);
    } catch (e) {
      warnings.push(`server delays not measured: ${(e as Error).message}`);
    }
  }
  try {
    let { graph } = buildFromTrace(bundle, { input: bundle, analysisScope: opts.analysisScope });
    if (existsSync(delaysFile)) graph = mergeServerDelays(graph, parseServerDelays(readJsonFile(delaysFile))).graph;
    const v = validateGraph(graph);
    if (!v.ok) return done('failed', `graph: does not match graph format v1: ${v.errors.slice(0, 3).join('; ')}`, runs);
    writeJsonFile(join(dir, PAGE_FILES.graph), graph);
  } catch (e) {
    return done('failed', `graph: ${(e as Error).message.split('\n', 1)[0]}`, runs);
  }
  return done('ok', undefined, runs);
}
