/**
 * One round trip: graph -> synthesized site (a replay bundle) -> `pcp profile --replay --pace` (real
 * Chromium, the replay on loopback; a child tied to this process) -> the trace builder -> the
 * comparison with the source graph.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildFromTrace, loadGraph, type Graph } from '@pcp/graph-builder';
import { spawnTied } from '@pcp/profiler';
import { BUNDLE_FILES } from '@pcp/profiler/bundle';
import { bodyStartsOf } from './body-start.ts';
import { writeSiteBundle } from './bundle.ts';
import { compareMatched, matchGraphs, type RoundTripFigures } from './compare.ts';
import type { RecordedGraphs } from './cp-agreement.ts';
import { synthesizeSite } from './site.ts';
import { legacyProcessModel } from './process-model.ts';

const PCP = fileURLToPath(new URL('../../cli/bin/pcp.js', import.meta.url));

export interface RoundTrip {
  source: Graph;
  built: Graph;
  /** Both graphs as recorded, the rebuilt one's upgrades aligned (for criticalPathMisses). */
  recorded: RecordedGraphs;
  figures: RoundTripFigures;
  /** Warnings of the synthesis (edges it could not cause). */
  synthWarnings: string[];
  synthMs: number;
  /** The profile's own line (status, requests, misses). */
  profileLine: string;
}

export class RoundTripError extends Error {}

function run(args: string[], timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawnTied(process.execPath, [PCP, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (err += d));
    const timer = setTimeout(() => child.kill('SIGTERM'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(out.trim());
      else reject(new RoundTripError(`pcp ${args[0]} exited ${code}: ${(err.trim().split('\n').at(-1) ?? '').slice(0, 300)}`));
    });
  });
}

/** Whether the graph has MessagePort message events (the synthesized page posts them on a MessageChannel). */
export const hasPortMessages = (g: Graph): boolean =>
  g.nodes.some((n) => n.kind === 'event' && n.eventTarget.toLowerCase() === 'messageport');

/** How a round trip loads the synthesized site (each an A/B of synth/README.md; default: the round trip's own). */
export interface RoundTripOptions {
  /** Cap on the profile command, ms (default 120,000). */
  timeoutMs?: number;
  /** A profile already in `workDir/profile` is rebuilt and compared without loading again. */
  rescore?: boolean;
  /** false: Chromium without its preload scanner (tags requested when parsed). */
  preloadScanner?: boolean;
  /** false: the source's cache hits are not put in Chromium's cache first. */
  cacheWarmUp?: boolean;
  /** false: Blink's scheduler out of its tight mode (`pcp profile --no-renderer-holds`). */
  rendererHolds?: boolean;
}

/** Synthesizes `graphFile` into `workDir/site`, profiles it into `workDir/profile` and compares. */
export async function roundTrip(graphFile: string, workDir: string, o: RoundTripOptions = {}): Promise<RoundTrip> {
  const { timeoutMs = 120_000, rescore = false, preloadScanner, cacheWarmUp, rendererHolds } = o;
  const source = loadGraph(graphFile);
  const t0 = performance.now();
  const site = synthesizeSite(source, { bodyStarts: bodyStartsOf(source) });
  const synthMs = performance.now() - t0;
  const siteDir = join(workDir, 'site');
  const profileDir = join(workDir, 'profile');
  mkdirSync(workDir, { recursive: true });
  writeSiteBundle(siteDir, site, graphFile);
  // Chromium's preload scanner stays on unless asked (`--no-preload-scanner`, the A/B of synth/README.md):
  // the legacy graphs' browser preloaded too (openload.co: three sync scripts requested at 897-901 ms).
  const noPreload = preloadScanner === false ? ['--no-preload-scanner'] : [];
  // A MessagePort message's handler is told from a window callback only by the posted-task flows
  // (profiler/src/trace-config.ts): without them flickr.com's 17 come back as `window.callback`.
  const taskFlows = hasPortMessages(source) ? ['--task-flows'] : [];
  const noWarmUp = cacheWarmUp === false ? ['--no-cache-warm-up'] : [];
  // Chromium 156's renderer holds requests below High until <body> (tight mode) unless asked (`--no-renderer-holds`,
  // an A/B: 2016's held in the browser, inside the source's spans; synth/README.md "Session 19", not the default).
  const noHolds = rendererHolds === false ? ['--no-renderer-holds'] : [];
  // The source's browser (2016) ran cross-site iframes in the page's renderer: so does the replay's, or a
  // frame's postMessage loses its trace link to the handler and ad frames run beside the page (process-model.ts).
  const processModel = legacyProcessModel({ sourceKind: source.provenance.source }) ? ['--no-site-isolation'] : [];
  const profileLine = rescore && existsSync(join(profileDir, BUNDLE_FILES.trace)) ? 'kept profile'
    : await run(['profile', '--replay', siteDir, '--pace', '--out', profileDir, '--timeout', '60000', ...noPreload, ...taskFlows, ...noWarmUp, ...processModel, ...noHolds], timeoutMs);
  const { graph: built } = buildFromTrace(profileDir);
  const matched = matchGraphs(source, built);
  return { source, built, recorded: matched.recorded, figures: compareMatched(source, matched), synthWarnings: site.warnings, synthMs, profileLine: profileLine.split('\n')[0] ?? '' };
}
