/**
 * `pcp build BUNDLE_DIR` / `pcp build trace.json`: stock Chromium input -> activity model
 * (adapters/trace) -> the same rule core as the legacy path (buildFromActivities), download chunks timed
 * as the legacy path times them (by their bytes' arrival unless `chunkTimes` says otherwise).
 */
import { readTraceInput } from './adapters/trace/index.ts';
import { buildFromActivities, type BuildOptions, type BuildResult } from './build.ts';

export function buildFromTrace(path: string, options: BuildOptions = {}): BuildResult {
  const input = readTraceInput(path);
  const warnings = [...input.warnings];
  const graph = buildFromActivities(input.acts, warnings, { ...options, input: options.input ?? path }, input.kind);
  if (input.browserVersion) graph.provenance.browserVersion = input.browserVersion;
  return { graph, warnings };
}
