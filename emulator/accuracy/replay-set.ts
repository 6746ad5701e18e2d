/**
 * One replay bundle for many recorded pages: their archives' entries concatenated (in page order) and
 * their server-delay records likewise, so that a single `pcp replay --serve` per shaped link serves
 * every page of the grid instead of one replay process per page and link (50 pages x 9 links would be
 * 450 node processes). Each recording keeps its own origins (host:port as recorded); pages recorded
 * from one test server share origins and differ by path. A URL two pages share (a doc site's theme
 * CSS) has one entry per recording: the replay's matcher serves them in turn, the same bytes.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUNDLE_FILES, readArchiveHar, writeFileAtomic } from '@pcp/profiler/bundle';
import type { Har } from '@pcp/profiler';

/** A recording as the set needs it: its archive and its `pcp delays` JSON (a list, or `{records}`). */
export interface SetMember {
  name: string;
  har: Har;
  delays: unknown;
}

/** The merged archive (pages and entries renamed per member so that page refs stay unique) and delay records. Pure. */
export function mergeReplaySet(members: readonly SetMember[]): { har: Har; records: unknown[] } {
  if (members.length === 0) throw new Error('a replay set needs at least one recording');
  const pages: Har['log']['pages'] = [];
  const entries: Har['log']['entries'] = [];
  const records: unknown[] = [];
  for (const m of members) {
    const ref = (id: string): string => `${m.name}/${id}`;
    pages.push(...m.har.log.pages.map((p) => ({ ...p, id: ref(p.id) })));
    entries.push(...m.har.log.entries.map((e) => ({ ...e, pageref: ref(e.pageref) })));
    const list = Array.isArray(m.delays) ? m.delays : (m.delays as { records?: unknown } | null)?.records;
    if (!Array.isArray(list)) throw new Error(`${m.name}: the server delays are not a list of records (the JSON of pcp delays)`);
    records.push(...list);
  }
  const first = members[0]!.har.log;
  return { har: { log: { ...first, pages, entries } }, records };
}

/**
 * Writes the set's bundle (DIR/bundle/archive.har) and delays (DIR/delays.json) from recordings laid
 * out as DIR/<page>/{bundle,delays.json}; returns their paths.
 */
export function writeReplaySet(dir: string, recordings: readonly { name: string; bundle: string; delays: string }[]): { bundle: string; delays: string } {
  const members = recordings.map((r) => {
    const har = readArchiveHar(r.bundle);
    if (!har) throw new Error(`${r.bundle} has no ${BUNDLE_FILES.archive}`);
    return { name: r.name, har, delays: JSON.parse(readFileSync(r.delays, 'utf8')) as unknown };
  });
  const { har, records } = mergeReplaySet(members);
  const bundle = join(dir, 'bundle');
  mkdirSync(bundle, { recursive: true });
  writeFileAtomic(join(bundle, BUNDLE_FILES.archive), JSON.stringify(har));
  const delays = join(dir, 'delays.json');
  writeFileAtomic(delays, JSON.stringify(records));
  return { bundle, delays };
}
