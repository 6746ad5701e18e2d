/**
 * Which recorded response answers a request (pure). The rule, in order:
 *  1. exact: same method and URL (fragment dropped);
 *  2. same method, origin and path, and the same query once cache-busting noise is removed from
 *     both sides: parameters named like cache busters (`_`, `cb`, `cachebust(er)`, `nocache`, `t`, `ts`,
 *     `timestamp`, `rand`, `random`, `r`, `rnd`, `bust`) and parameters whose value looks generated (6+
 *     digits, e.g. Date.now(); a decimal fraction such as Math.random(); 16+ hex or base64url
 *     characters with digits). The remaining parameters are compared as a sorted list.
 * When several recorded responses share a key they are handed out in recorded order, the last one
 * repeating (a page asking twice for the same URL gets what it got each time).
 */
import type { ReplayEntry } from './archive.ts';

export type MatchKind = 'exact' | 'query';

const NOISE_NAMES = new Set(['_', 'cb', 'cachebust', 'cachebuster', 'cache_bust', 'cache-bust', 'nocache', 'no_cache', 't', 'ts', 'timestamp', 'rand', 'random', 'r', 'rnd', 'bust']);

export function isNoiseParam(name: string, value: string): boolean {
  if (NOISE_NAMES.has(name.toLowerCase())) return true;
  if (/^\d{6,}$/.test(value)) return true;
  if (/^0?\.\d{4,}$/.test(value)) return true;
  if (value.length >= 16 && /^[A-Za-z0-9_-]+$/.test(value) && /\d/.test(value) && /[A-Za-z]/.test(value)) return true;
  return false;
}

/** The request key with the query reduced to its meaningful parameters. */
export function looseKey(method: string, url: string): string {
  const u = new URL(url);
  const kept = [...u.searchParams].filter(([k, v]) => !isNoiseParam(k, v)).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).sort();
  return `${method.toUpperCase()} ${u.protocol}//${u.host}${u.pathname}?${kept.join('&')}`;
}

export function exactKey(method: string, url: string): string {
  return `${method.toUpperCase()} ${url.replace(/#.*$/, '')}`;
}

export interface Matcher {
  match(method: string, url: string): { entry: ReplayEntry; kind: MatchKind } | undefined;
}

export function createMatcher(entries: readonly ReplayEntry[]): Matcher {
  const exact = new Map<string, ReplayEntry[]>();
  const loose = new Map<string, ReplayEntry[]>();
  const push = (m: Map<string, ReplayEntry[]>, k: string, e: ReplayEntry): void => {
    const list = m.get(k);
    if (list) list.push(e);
    else m.set(k, [e]);
  };
  for (const e of entries) {
    push(exact, exactKey(e.method, e.url), e);
    push(loose, looseKey(e.method, e.url), e);
  }
  const used = new Map<string, number>();
  const take = (key: string, list: ReplayEntry[]): ReplayEntry => {
    const i = used.get(key) ?? 0;
    used.set(key, i + 1);
    return list[Math.min(i, list.length - 1)]!;
  };
  return {
    match(method, url) {
      const ek = exactKey(method, url);
      const hit = exact.get(ek);
      if (hit) return { entry: take(ek, hit), kind: 'exact' };
      let lk: string;
      try {
        lk = looseKey(method, url);
      } catch {
        return undefined;
      }
      const near = loose.get(lk);
      if (near) return { entry: take(`~${lk}`, near), kind: 'query' };
      return undefined;
    },
  };
}
