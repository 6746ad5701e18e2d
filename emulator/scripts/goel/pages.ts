/**
 * Goel et al. 2017's synthetic pages (§VII), built as v1 graphs: an HTML document whose parse requests every
 * object at once (as the parser meets them), and the load event after the last one. Sizes follow the text:
 * - `small-365`: 365 objects of 1 KB, a 38 KB document (Fig. 13);
 * - `large-10`: 10 objects of 435 KB, a 10 KB document (Fig. 14);
 * - `mixed-3` / `mixed-12` / `mixed-18`: 136 objects, 3 / 12 / 18 of them large (30-620 KB) and the rest
 *   small (20 B-5 KB), about 2 / 8 / 12 MB in all (Fig. 15): sizes drawn with a seeded Rng, the large ones
 *   scaled to the page's total and kept within 30-620 KB.
 * `largeHosts` puts the large objects on their own hostnames (Goel's domain sharding, §VIII): 0 = every
 * object on the document's host; k = the large objects spread round-robin over k extra hostnames.
 * `spreadHosts` spreads the other objects too (§VIII-A, Fig. 19's 365 x 1 KB page with "half of the objects
 * on a different h2-compatible domain name"): n = those objects round-robin over n hostnames, the document's first.
 */
import type { Graph } from '@pcp/graph-builder';
import { Rng } from '../../src/rng.ts';
import { PageBuilder } from '@pcp/graph-builder/testing';

export interface PageFamily {
  name: string;
  what: string;
  documentBytes: number;
  /** Object sizes, bytes; the first `large` are the large ones. */
  objects: number[];
  large: number;
}

const KB = 1000;

function mixed(name: string, large: number, totalBytes: number, seed: number): PageFamily {
  const rng = new Rng(seed, 1);
  const small = Array.from({ length: 136 - large }, () => Math.round(20 + rng.next() * (5 * KB - 20)));
  const documentBytes = 30 * KB;
  const raw = Array.from({ length: large }, () => 30 * KB + rng.next() * (620 * KB - 30 * KB));
  const want = totalBytes - documentBytes - small.reduce((a, b) => a + b, 0);
  // Scale the free ones to what the capped ones leave, until none more hits the 620 KB cap.
  let big = raw;
  for (let round = 0; round < large; round++) {
    const capped = big.filter((b) => b >= 620 * KB);
    const free = big.filter((b) => b < 620 * KB).reduce((a, b) => a + b, 0);
    const scale = (want - capped.length * 620 * KB) / free;
    big = big.map((b) => (b >= 620 * KB ? 620 * KB : Math.min(620 * KB, Math.max(30 * KB, b * scale))));
  }
  big = big.map(Math.round);
  return { name, what: `136 objects, ${large} large`, documentBytes, objects: [...big, ...small], large };
}

export const PAGE_FAMILIES: readonly PageFamily[] = [
  { name: 'small-365', what: '365 x 1 KB', documentBytes: 38 * KB, objects: new Array<number>(365).fill(1 * KB), large: 0 },
  { name: 'large-10', what: '10 x 435 KB', documentBytes: 10 * KB, objects: new Array<number>(10).fill(435 * KB), large: 10 },
  mixed('mixed-3', 3, 2_000 * KB, 3),
  mixed('mixed-12', 12, 8_000 * KB, 12),
  mixed('mixed-18', 18, 12_000 * KB, 18),
];

export function pageBytes(p: PageFamily): number {
  return p.documentBytes + p.objects.reduce((a, b) => a + b, 0);
}

/** The hostname of object i when its objects are spread over n hostnames (the document's first). */
export function spreadHost(i: number, n: number): string {
  const k = i % Math.max(1, n);
  return k === 0 ? 'www.example.com' : `shard${k}.example.com`;
}

export function buildPage(p: PageFamily, largeHosts = 0, spreadHosts = 1): Graph {
  // The document is the graph's root: h2-aware sharding leaves it on the page's first connection.
  const b = new PageBuilder().resource('doc', 'https://www.example.com/', p.documentBytes, { serverDelay: 0, mimeType: 'text/html' }).root('doc');
  b.parse('parse', 1).edge('doc', 'parse');
  p.objects.forEach((bytes, i) => {
    const host = i < p.large && largeHosts > 0 ? `large${i % largeHosts}.example.com` : spreadHost(i, spreadHosts);
    const id = `o${i}`;
    b.resource(id, `https://${host}/o${i}`, bytes, { serverDelay: 0, mimeType: i < p.large ? 'image/jpeg' : 'image/png' });
    b.edge('parse', id).edge(id, 'load');
  });
  b.edge('parse', 'dcl');
  return b.build();
}
