/**
 * Server delays for replay: each recorded response is held for the server processing delay `pcp
 * delays` measured for it from the bundle's capture (or estimated, as `pcp delays` draws them). Pure.
 */
import type { ReplayEntry } from './archive.ts';

/** The fields of a `pcp delays` record that replay uses. */
export interface DelayRecord {
  method?: string;
  url: string;
  delayMs: number | null;
  estimated?: boolean;
}

export interface DelaySummary {
  /** Entries given a delay from a measurement / an estimate; entries with no record get 0. */
  measured: number;
  estimated: number;
  none: number;
}

/**
 * Sets each entry's delayMs from the records: the k-th recorded response of a method+URL gets the
 * k-th record of it (redirect hops and repeats included), the last one repeating.
 */
export function assignDelays(entries: ReplayEntry[], records: readonly DelayRecord[]): DelaySummary {
  const by = new Map<string, DelayRecord[]>();
  for (const r of records) {
    if (typeof r?.url !== 'string') continue;
    const k = `${(r.method ?? 'GET').toUpperCase()} ${r.url}`;
    const list = by.get(k);
    if (list) list.push(r);
    else by.set(k, [r]);
  }
  const used = new Map<string, number>();
  const summary: DelaySummary = { measured: 0, estimated: 0, none: 0 };
  for (const e of entries) {
    const k = `${e.method.toUpperCase()} ${e.url}`;
    const list = by.get(k);
    const i = used.get(k) ?? 0;
    used.set(k, i + 1);
    const rec = list?.[Math.min(i, list.length - 1)];
    if (!rec || rec.delayMs === null || !Number.isFinite(rec.delayMs) || rec.delayMs < 0) {
      e.delayMs = 0;
      summary.none++;
    } else {
      e.delayMs = rec.delayMs;
      if (rec.estimated) summary.estimated++;
      else summary.measured++;
    }
  }
  return summary;
}

/** The records in the JSON `pcp delays` writes (a list, or `{records: [...]}`). Pure. */
export function delayRecordsOf(json: unknown): DelayRecord[] {
  const list = Array.isArray(json) ? json : (json as { records?: unknown } | null)?.records;
  if (!Array.isArray(list)) throw new Error('expected a list of server-delay records (the JSON of pcp delays)');
  return list as DelayRecord[];
}
