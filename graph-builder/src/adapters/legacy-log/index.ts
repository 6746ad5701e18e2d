/**
 * The patched-Chromium legacy-log adapter: lines -> records (reader) -> per-kind handlers -> the activity
 * model (resolve). Pure: file and gzip handling live in ./file.ts.
 */
import type { Activities } from '../../model/types.ts';
import { computationHandler } from './handlers/computations.ts';
import { frameHandler } from './handlers/frames.ts';
import type { Handler } from './handlers/handler.ts';
import { metaHandler } from './handlers/meta.ts';
import { resourceHandler } from './handlers/resources.ts';
import { tokenHandler } from './handlers/tokens.ts';
import { readRecords, type ReadOptions } from './reader.ts';
import { resolveActivities } from './resolve.ts';

export { LegacyLogError, linesOf } from './reader.ts';

export function legacyLogToActivities(lines: Iterable<string>, warnings: string[], options: ReadOptions = {}): Activities {
  const meta = metaHandler();
  const frames = frameHandler();
  const resources = resourceHandler();
  const tokens = tokenHandler();
  const computations = computationHandler();
  const all: Handler<unknown>[] = [meta, frames, resources, tokens, computations];
  const byKind = new Map<string, Handler<unknown>>();
  for (const h of all) for (const k of h.kinds) byKind.set(k, h);
  for (const rec of readRecords(lines, warnings, options)) byKind.get(rec.kind)!.handleEvent(rec);
  for (const h of all) h.finalize();
  return resolveActivities(
    { meta: meta.data(), frames: frames.data(), resources: resources.data(), tokens: tokens.data(), computations: computations.data() },
    warnings,
  );
}
