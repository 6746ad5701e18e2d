/**
 * Server processing delays (§3.7.6, §3.4.1): a response waits the delay the graph recorded; when the graph
 * has none, one is drawn (seeded) from the empirical CDF of its MIME class. The default CDFs are the
 * legacy corpus' `server-delay-cdfs/*.dist` files (`delaySeconds cumulativeProbability` per line).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Rng } from './rng.ts';

export type MimeClass = 'text' | 'css' | 'javascript' | 'image' | 'other' | 'post';
export const MIME_CLASSES: readonly MimeClass[] = ['text', 'css', 'javascript', 'image', 'other', 'post'];

/** Per class: points (delay ms, cumulative probability), sorted by probability. */
export type DelayCdfs = Partial<Record<MimeClass, Array<[number, number]>>>;

const FILE_CLASS: Record<string, MimeClass> = {
  textdelayscdf: 'text',
  cssdelayscdf: 'css',
  javascriptdelayscdf: 'javascript',
  imagedelayscdf: 'image',
  otherdelayscdf: 'other',
  postdelayscdf: 'post',
};

export function mimeClass(mimeType: string, method: string): MimeClass {
  if (method.toUpperCase() === 'POST') return 'post';
  const m = mimeType.toLowerCase();
  if (m.includes('html') || m.startsWith('text/plain')) return 'text';
  if (m.includes('css')) return 'css';
  if (m.includes('javascript') || m.includes('ecmascript')) return 'javascript';
  if (m.startsWith('image/')) return 'image';
  return 'other';
}

export { sharedDir } from '@pcp/graph-builder';
import { sharedDir } from '@pcp/graph-builder';

export function defaultCdfDir(): string {
  return join(sharedDir(), 'legacy-corpus', 'server-delay-cdfs');
}

const cache = new Map<string, DelayCdfs>();

/** Reads a directory of *.dist CDF files (seconds) into per-class points in ms. Cached per directory. */
/** The default CDFs, with the PCP_SHARED value they were read under (process.env lookups are slow). */
let defaultCdfs: { env: string | undefined; cdfs: DelayCdfs } | undefined;

export function loadDelayCdfs(dirArg?: string): DelayCdfs {
  if (dirArg === undefined) {
    const env = process.env.PCP_SHARED;
    if (defaultCdfs && defaultCdfs.env === env) return defaultCdfs.cdfs;
    const cdfs = loadDelayCdfs(defaultCdfDir());
    defaultCdfs = { env, cdfs };
    return cdfs;
  }
  const dir = dirArg;
  const hit = cache.get(dir);
  if (hit) return hit;
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.dist'));
  } catch {
    throw new Error(`server delay CDFs: cannot read directory ${dir} (set PCP_SHARED or pass serverDelayCdfs)`);
  }
  const out: DelayCdfs = {};
  for (const f of files) {
    const cls = FILE_CLASS[f.replace(/\.dist$/, '').toLowerCase()];
    if (!cls) continue;
    const pts: Array<[number, number]> = [];
    for (const line of readFileSync(join(dir, f), 'utf8').split('\n')) {
      const [d, p] = line.trim().split(/\s+/).map(Number);
      if (d === undefined || p === undefined || !Number.isFinite(d) || !Number.isFinite(p)) continue;
      pts.push([d * 1000, p]);
    }
    pts.sort((a, b) => a[1] - b[1]);
    out[cls] = pts;
  }
  cache.set(dir, out);
  return out;
}

/** A CDF as two flat arrays, for a cache-friendly binary search. */
interface FlatCdf {
  delay: Float64Array;
  prob: Float64Array;
}

const flatCache = new WeakMap<Array<[number, number]>, FlatCdf>();

function flat(points: Array<[number, number]>): FlatCdf {
  let f = flatCache.get(points);
  if (!f) {
    f = { delay: Float64Array.from(points, (p) => p[0]), prob: Float64Array.from(points, (p) => p[1]) };
    flatCache.set(points, f);
  }
  return f;
}

function sampleFlat(f: FlatCdf, u: number): number {
  let lo = 0;
  let hi = f.prob.length - 1;
  if (hi < 0) return 0;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (f.prob[mid]! >= u) hi = mid;
    else lo = mid + 1;
  }
  return f.delay[lo]!;
}

let defaultsRead: DelayCdfs | undefined;
/** The default CDFs for the life of the process: simulations must not pay an environment lookup each. */
function cachedDefault(): DelayCdfs {
  return (defaultsRead ??= loadDelayCdfs());
}

export class ServerDelaySampler {
  private cdfs: DelayCdfs | undefined;

  constructor(
    private readonly source: DelayCdfs | string | undefined,
    private readonly rng: Rng,
  ) {}

  /** The graph's delay when it has one, else a seeded draw for the MIME class. */
  delay(recorded: number | undefined, cls: MimeClass): number {
    if (recorded !== undefined && recorded >= 0 && Number.isFinite(recorded)) return recorded;
    if (!this.cdfs) this.cdfs = typeof this.source === 'object' ? this.source : this.source === undefined ? cachedDefault() : loadDelayCdfs(this.source);
    const pts = this.cdfs[cls] ?? this.cdfs.other;
    if (!pts || pts.length === 0) throw new Error(`server delay CDFs have no '${cls}' (or 'other') class to draw from`);
    return sampleFlat(flat(pts), this.rng.next());
  }
}
