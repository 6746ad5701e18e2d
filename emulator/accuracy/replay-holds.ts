/**
 * replay-holds — what the shaped grid's real loads never had (issue 17). A kept recording's graph records how
 * long the network service read each response (`browserDelay.read`: from its headers to the body's end there),
 * which on a loopback recording of a synthesized site is mostly the server holding the body (its source's
 * transfer); the emulator replays that. The grid's real loads replay the recording's archive instead
 * (`pcp replay --pace`), and that paces a body only by its `_chunks`: none for a body that came in one piece,
 * and timed from DevTools' responseReceived, which Chromium sends a cross-origin script's renderer only once
 * its body is in (craigslist's general-concat.min.js: a 579 ms read, its chunks 0.1 ms after that event). So
 * per response: the recorded read, the hold the replay serves (its pacing's last write, replay's `pacePlan`)
 * and the rest, which the emulator replays and the real loads lack. Reads a kept directory only; no browser.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Graph } from '@pcp/graph-builder';
import { pacePlan, readArchive, type ReplayEntry } from '@pcp/replay';
import { scriptArgs } from '@pcp/profiler/script-args';

/** One response whose recorded read the replay does not serve. */
export interface DroppedHold {
  url: string;
  requestType: string;
  /** The graph's `browserDelay.read`, ms. */
  read: number;
  /** The hold the replay serves: its pacing's last write after the headers, ms (0 unpaced). */
  served: number;
  /** read - served, ms. */
  lost: number;
  /** Why the archive lacks it: no `_chunks` (one piece), or chunks timed from a late responseReceived. */
  why: 'one piece' | 'late response';
}

/** The last write of the replay's pacing of an entry (replay's `pacePlan`, as `pcp replay --pace` serves it), ms after its headers. */
export function servedHold(entry: Pick<ReplayEntry, 'chunks' | 'body'>): number {
  const steps = pacePlan(entry.chunks ?? [], entry.body?.length ?? 0);
  return steps[steps.length - 1]!.atMs;
}

/**
 * The responses of `graph` whose recorded read exceeds what the replay of `entries` serves by `minMs` or more
 * (the network service's own read, 0.4-15 ms on a loopback recording, stays under the default 20), in graph order.
 * A URL the archive lacks is skipped (the replay answers it 404).
 */
export function droppedHolds(graph: Pick<Graph, 'nodes'>, entries: readonly Pick<ReplayEntry, 'url' | 'chunks' | 'body'>[], minMs = 20): DroppedHold[] {
  const byUrl = new Map<string, Pick<ReplayEntry, 'url' | 'chunks' | 'body'>>();
  for (const e of entries) if (!byUrl.has(e.url)) byUrl.set(e.url, e);
  const out: DroppedHold[] = [];
  for (const x of graph.nodes) {
    if (x.kind !== 'resource' || x.cached || x.browserDelay?.read === undefined) continue;
    const entry = byUrl.get(x.url);
    if (!entry) continue;
    const read = x.browserDelay.read;
    const served = servedHold(entry);
    if (read - served < minMs) continue;
    out.push({ url: x.url, requestType: x.requestType ?? '?', read, served, lost: read - served, why: entry.chunks && entry.chunks.length > 1 ? 'late response' : 'one piece' });
  }
  return out;
}

const HELP = `usage: node --import tsx emulator/accuracy/replay-holds.ts --from DIR [--min MS] [--page NAME]

For each kept recording DIR/<page>/{graph.json,bundle/archive.har} (accuracy:emulator --keep DIR), the
responses whose recorded read (graph browserDelay.read: the server's hold of the body on a loopback
recording) exceeds what the replay of its archive serves (pcp replay --pace), as the grid's real loads
had them: the emulator replays the read, the real loads do not. No browser; reads DIR only.

options:
  --from DIR     a kept directory of accuracy:emulator or accuracy:identity
  --min MS       report a response when read - served >= MS (default 20)
  --page NAME    only this page
  -h, --help`;

const ms = (v: number): string => v.toFixed(0).padStart(6);

function main(): number {
  const { values } = scriptArgs('replay-holds', HELP, { from: { type: 'string' }, min: { type: 'string' }, page: { type: 'string' } });
  if (!values.from) throw new Error('--from DIR is required (see --help)');
  if (!existsSync(values.from)) throw new Error(`--from ${values.from}: no such directory`);
  const minMs = values.min === undefined ? 20 : Number(values.min);
  if (!(minMs >= 0)) throw new Error(`--min expects milliseconds >= 0, got '${values.min}'`);
  const pages = readdirSync(values.from, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(values.from!, d.name, 'graph.json')) && existsSync(join(values.from!, d.name, 'bundle')))
    .map((d) => d.name)
    .filter((p) => values.page === undefined || p === values.page)
    .sort();
  if (pages.length === 0) throw new Error(`--from ${values.from}: no kept recording (<page>/graph.json and <page>/bundle)${values.page ? ` named ${values.page}` : ''}`);
  let total = 0;
  let count = 0;
  for (const page of pages) {
    const graph = JSON.parse(readFileSync(join(values.from, page, 'graph.json'), 'utf8')) as Graph;
    const rows = droppedHolds(graph, readArchive(join(values.from, page, 'bundle')).entries, minMs);
    const lost = rows.reduce((s, r) => s + r.lost, 0);
    console.log(`${page}: ${rows.length} responses, ${lost.toFixed(0)} ms of recorded hold the replay does not serve`);
    for (const r of rows) console.log(`  read ${ms(r.read)}  served ${ms(r.served)}  lost ${ms(r.lost)}  ${r.why.padEnd(13)} ${r.requestType.padEnd(10)} ${r.url.slice(0, 90)}`);
    total += lost;
    count += rows.length;
  }
  console.log(`\n${pages.length} pages: ${count} responses, ${total.toFixed(0)} ms in all (read - served >= ${minMs} ms)`);
  return 0;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    process.exitCode = main();
  } catch (e) {
    console.error(`replay-holds: ${(e as Error).message}`);
    process.exitCode = 2;
  }
}
