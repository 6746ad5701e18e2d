/**
 * Why two critical paths differ, by class: each resource on one path and not the other (by URL,
 * Algorithm 1 on both graphs, as the comparison computes it) is classed by its spans on both sides,
 * and a graph whose source path spends most of its length (the document's own download aside) in
 * download chunks whose times the legacy importer interpolated is named as such (the source's path
 * follows a chain of chunks spread over the document's whole span, DNS and first byte included, which
 * no browser recorded: document-pace.ts).
 * Pure.
 */
import { criticalPath, type Graph, type ResourceNode } from '@pcp/graph-builder';
import { stripFragment } from './graph-index.ts';
import { pathLengths, span, type PathLengths, type RecordedGraphs } from './cp-agreement.ts';

/** Spans more than this factor (and 20 ms) apart count as longer or shorter. */
const FACTOR = 1.5;
const SLACK_MS = 20;

function firstByUrl(g: Graph): Map<string, ResourceNode> {
  const out = new Map<string, ResourceNode>();
  for (const n of g.nodes) if (n.kind === 'resource' && !out.has(stripFragment(n.url))) out.set(stripFragment(n.url), n);
  return out;
}

/** The path's resources, its length less its first node (the document, on every path), and its interpolated chunks' share. */
function pathOf(g: Graph): { urls: Set<string>; length: number; fullLength: number; interpolatedChunks: number } {
  const byId = new Map(g.nodes.map((n) => [n.id, n]));
  const cp = criticalPath(g);
  const urls = new Set<string>();
  let interpolatedChunks = 0;
  for (const s of cp.steps) {
    const n = byId.get(s.id);
    if (n?.kind === 'resource') urls.add(stripFragment(n.url));
    else if (n?.kind === 'download_chunk' && n.extra?.interpolatedTimes === true) interpolatedChunks += s.duration;
  }
  return { urls, length: cp.length - (cp.steps[0]?.duration ?? 0), fullLength: cp.length, interpolatedChunks };
}

/** Within this share of a path's length, a branch off it is a near tie. */
const TIE = 0.1;

/**
 * Why a resource on one side's critical path (`on`, its path `onLength`) is off the other's (`off`, its
 * path `offLength`) when its span is alike on both: its branch there is within a tenth of that path (a
 * near tie, decided by a few ms anywhere), or as long as on its own side (the other path grew: something
 * else lasts longer there), or shorter there: before the resource (the way to it: chunks, computations,
 * requests that precede it) or after it (what hangs below it), by which lost more.
 */
function branchClass(onSide: PathLengths, on: ResourceNode, onLength: number,
  offSide: PathLengths, off: ResourceNode, offLength: number): string {
  const through = offSide.before(off.id) + offSide.after(off.id);
  if (through >= offLength * (1 - TIE)) return 'near tie (its branch within 10% of the path)';
  if (through >= onLength * (1 - TIE)) return 'the other path is longer (its branch as long as on its own side)';
  const lostBefore = onSide.before(on.id) - offSide.before(off.id);
  const lostAfter = onSide.after(on.id) - offSide.after(off.id);
  return lostBefore >= lostAfter ? 'its branch is shorter there, before it' : 'its branch is shorter there, after it';
}

/** Where a rebuilt resource's excess over its recorded span went: the browser's own waits when they hold half of it. */
function longerBecause(b: ResourceNode, excess: number): string {
  if ((b.browserDelay?.release ?? 0) > excess / 2) return "held by the renderer's scheduler";
  if ((b.browserDelay?.request ?? 0) > excess / 2) return 'waited for a connection';
  return 'server or transfer';
}

/** Classes of the resources the two critical paths (of the graphs as recorded) do not share, with counts (`graph: ...` once per graph). */
export function criticalPathMisses({ source, built }: RecordedGraphs): Map<string, number> {
  const sp = pathOf(source);
  const bp = pathOf(built);
  const sr = firstByUrl(source);
  const br = firstByUrl(built);
  const out = new Map<string, number>();
  const count = (k: string): void => void out.set(k, (out.get(k) ?? 0) + 1);
  let lengths: [PathLengths, PathLengths] | undefined;
  const sides = (): [PathLengths, PathLengths] => (lengths ??= [pathLengths(source), pathLengths(built)]);
  for (const url of sp.urls) {
    if (bp.urls.has(url)) continue;
    const b = br.get(url);
    if (!b) count('source path resource missing in the rebuilt graph');
    else if (span(b) * FACTOR + SLACK_MS < span(sr.get(url)!)) count('source path resource shorter in the replay');
    else count(`source path resource off the rebuilt path (another branch weighs more): ${branchClass(sides()[0], sr.get(url)!, sp.fullLength, sides()[1], b, bp.fullLength)}`);
  }
  for (const url of bp.urls) {
    if (sp.urls.has(url)) continue;
    const b = br.get(url)!;
    const s = sr.get(url);
    const excess = s ? span(b) - span(s) : 0;
    if (!s) count('rebuilt path resource not in the source');
    else if (span(b) > span(s) * FACTOR + SLACK_MS) count(`rebuilt path resource longer in the replay: ${longerBecause(b, excess)}`);
    else count(`rebuilt path resource off the source path (another branch weighs more): ${branchClass(sides()[1], b, bp.fullLength, sides()[0], s, sp.fullLength)}`);
  }
  if (out.size && sp.interpolatedChunks > sp.length / 2) count('graph: source path mostly interpolated download chunks');
  return out;
}
