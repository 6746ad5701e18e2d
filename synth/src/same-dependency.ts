/**
 * What counts as the same dependency when two builders draw it on different nodes (session 12). An
 * external script is two nodes, its download and its evaluation (rule 10), and a dependency of the
 * script element can be drawn on either:
 *
 * - **The load waits for script S.** The 2016 builder draws it on the download (Appendix A: the
 *   load's parents are resources, `rule 25: resource -> marker`); the trace builder on the evaluation
 *   (Chromium's load event waits for each script element to run, `event:window.load: script -> marker`).
 *   `evaluation(S) -> load` is keyed `download(S) -> load`.
 * - **X caused script S.** A parse chunk, script, timer or handler that requested S (`X -> download(S)`,
 *   rule 1 or 2) and is also drawn as a parent of its evaluation (`X -> evaluation(S)`, rules 12-16: the
 *   trace builder draws both, the 2016 builder only the request) states one dependency twice:
 *   `X -> evaluation(S)` is keyed `X -> download(S)` when that edge is in the same graph.
 *
 * Applied to both graphs alike; a script's evaluation is matched to its download by a rule 10 or 11
 * edge between the two keys of one URL. A dependency one graph has and the other does not stays a miss
 * under its new name (a `download -> load` the source lacks is still an added edge). Pure.
 */

/** An edge by the content keys of its ends, with its rule. */
export interface KeyedPair {
  rule: string;
  from: string;
  to: string;
}

/** The key of an edge by its ends' keys, as the comparison's edge maps use it. */
export const pairKey = (e: { from: string; to: string }): string => `${e.from} -> ${e.to}`;

const urlOf = (key: string, kind: 'resource' | 'script'): string | undefined => {
  if (kind === 'resource') return /^resource (\S+?)(?:#\d+)?(?: from .*)?$/.exec(key)?.[1];
  return /^script (\S+) in /.exec(key)?.[1];
};

/** A load of a document: the main frame's marker or a frame's window load handler. */
export const isLoadKey = (key: string): boolean => key.startsWith('marker load ') || key.startsWith('event window.load in ');

/** evaluation key -> the key of its own download (a rule 10/11 edge between keys of one URL). */
export function downloadsOf(edges: Iterable<KeyedPair>): Map<string, string> {
  const out = new Map<string, string>();
  for (const e of edges) {
    if (e.rule !== '10' && e.rule !== '11') continue;
    const url = urlOf(e.from, 'resource');
    if (url !== undefined && url === urlOf(e.to, 'script') && !out.has(e.to)) out.set(e.to, e.from);
  }
  return out;
}

/**
 * The edges with a script element's dependencies named on its download (above), one entry per
 * dependency. An edge drawn as named keeps its rule when a renamed one meets it (the request's rule 1
 * or 2, not the evaluation's 12-16); otherwise the first edge of a key, in the order given.
 */
export function sameDependencies<E extends KeyedPair>(edges: E[]): E[] {
  const download = downloadsOf(edges);
  const has = new Set(edges.map(pairKey));
  const out = new Map<string, E>();
  const renamed: E[] = [];
  for (const e of edges) {
    const d = download.get(e.to);
    const fromDownload = download.get(e.from);
    if (fromDownload !== undefined && isLoadKey(e.to)) renamed.push({ ...e, from: fromDownload });
    else if (d !== undefined && has.has(pairKey({ from: e.from, to: d }))) renamed.push({ ...e, to: d });
    else out.set(pairKey(e), e);
  }
  for (const e of renamed) {
    if (!out.has(pairKey(e))) out.set(pairKey(e), e);
  }
  return [...out.values()];
}
