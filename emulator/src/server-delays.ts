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

/**
 * A CDF as two flat arrays, for a cache-friendly binary search, and a guide table over the probability axis
 * (Chen and Asau's method): guide[b] is the first index whose probability reaches b / GUIDE_BUCKETS, so a draw
 * u in bucket b = floor(u * GUIDE_BUCKETS) searches only [guide[b], guide[b + 1]] instead of the whole CDF (the
 * image class has 18,000 points). The index found is the same as a search of the whole array.
 */
interface FlatCdf {
  delay: Float64Array;
  prob: Float64Array;
  guide: Int32Array;
}

const GUIDE_BUCKETS = 1024;
const flatCache = new WeakMap<Array<[number, number]>, FlatCdf>();

/** The first index in [lo, hi] whose probability is >= u (hi when none is). */
function firstAtLeast(prob: Float64Array, u: number, lo: number, hi: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (prob[mid]! >= u) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

function flat(points: Array<[number, number]>): FlatCdf {
  let f = flatCache.get(points);
  if (!f) {
    const prob = Float64Array.from(points, (p) => p[1]);
    const guide = new Int32Array(GUIDE_BUCKETS + 1);
    const last = Math.max(prob.length - 1, 0);
    for (let b = 0; b <= GUIDE_BUCKETS; b++) guide[b] = firstAtLeast(prob, b / GUIDE_BUCKETS, 0, last);
    f = { delay: Float64Array.from(points, (p) => p[0]), prob, guide };
    flatCache.set(points, f);
  }
  return f;
}

/** The delay at the first point whose cumulative probability reaches u (the last point when none does). */
function sampleFlat(f: FlatCdf, u: number): number {
  const hi = f.prob.length - 1;
  if (hi < 0) return 0;
  // Powers of two scale exactly: u in [b / K, (b + 1) / K), so the answer lies in [guide[b], guide[b + 1]].
  const b = Math.floor(u * GUIDE_BUCKETS);
  if (b < 0 || b >= GUIDE_BUCKETS) return f.delay[firstAtLeast(f.prob, u, 0, hi)]!;
  return f.delay[firstAtLeast(f.prob, u, f.guide[b]!, f.guide[b + 1]!)]!;
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
