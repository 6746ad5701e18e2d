/**
 * The patched-Chromium legacy-log adapter: lines -> records (reader) -> per-kind handlers -> the activity
 * model (resolve). Pure: it takes lines from any source, in memory or streamed (./file.ts reads files).
 */
import type { Activities } from '../../model/types.ts';
import { computationHandler } from './handlers/computations.ts';
import { frameHandler } from './handlers/frames.ts';
import type { Handler } from './handlers/handler.ts';
import { metaHandler } from './handlers/meta.ts';
import { resourceHandler } from './handlers/resources.ts';
import { tokenHandler } from './handlers/tokens.ts';
import { RecordReader, type ReadOptions } from './reader.ts';
import { resolveActivities } from './resolve.ts';

export { LegacyLogError, linesOf } from './reader.ts';

/** Feed lines one at a time with `line`, then `finish` for the activity model. */
export class LegacyLogAdapter {
  private readonly reader: RecordReader;
  private readonly meta = metaHandler();
  private readonly frames = frameHandler();
  private readonly resources = resourceHandler();
  private readonly tokens = tokenHandler();
  private readonly computations = computationHandler();
  private readonly byKind = new Map<string, Handler<unknown>>();

  constructor(
    private readonly warnings: string[],
    options: ReadOptions = {},
  ) {
    this.reader = new RecordReader(warnings, options);
    for (const h of this.all()) for (const k of h.kinds) this.byKind.set(k, h);
  }

  private all(): Handler<unknown>[] {
    return [this.meta, this.frames, this.resources, this.tokens, this.computations];
  }

  line(raw: string): void {
    const rec = this.reader.push(raw);
    if (rec) this.byKind.get(rec.kind)!.handleEvent(rec);
  }

  finish(): Activities {
    this.reader.finish();
    for (const h of this.all()) h.finalize();
    return resolveActivities(
      { meta: this.meta.data(), frames: this.frames.data(), resources: this.resources.data(), tokens: this.tokens.data(), computations: this.computations.data() },
      this.warnings,
    );
  }
}

export function legacyLogToActivities(lines: Iterable<string>, warnings: string[], options: ReadOptions = {}): Activities {
  const adapter = new LegacyLogAdapter(warnings, options);
  for (const l of lines) adapter.line(l);
  return adapter.finish();
}

export async function legacyLogToActivitiesAsync(lines: AsyncIterable<string>, warnings: string[], options: ReadOptions = {}): Promise<Activities> {
  const adapter = new LegacyLogAdapter(warnings, options);
  for await (const l of lines) adapter.line(l);
  return adapter.finish();
}
