/**
 * A graph read for synthesis and comparison: nodes by id, children and parents, the frames'
 * document URLs, computations grouped with their parts, and each node's content key (the name a
 * node keeps across a round trip: resources by URL, parse chunks by document and position, the
 * rest by frame document, kind and order). Pure.
 */
import { frameNames } from './frame-names.ts';
import { scriptElementLoads } from './script-loads.ts';
import { isAboutUrl } from './about-frames.ts';
import { enclosingOf, isNextPart, type Graph, type Edge, type EventNode, type GraphNode, type ParseChunkNode, type ResourceNode } from '@pcp/graph-builder';

export type Computation = Extract<GraphNode, { kind: 'script_eval' | 'css_eval' | 'timer' | 'event' }>;

export interface GraphIndex {
  graph: Graph;
  byId: Map<string, GraphNode>;
  children: Map<string, Edge[]>;
  parents: Map<string, Edge[]>;
  /** Frame id -> the URL of its document (the frame's URL, fragment dropped). */
  frameDoc: Map<string, string>;
  /** The first resource node of each URL (not served from cache when one is not). */
  resourceByUrl: Map<string, ResourceNode>;
  /** Parse chunks of each document URL, in document order. */
  chunksByDoc: Map<string, ParseChunkNode[]>;
  /** id of a computation part -> the ids of all parts of its computation, in order. */
  partsOf: Map<string, string[]>;
  /** Whether the edge leads from one part of a computation to the next (`isPartEdge`). */
  isPart(e: Edge): boolean;
}

export const isComputation = (n: GraphNode): n is Computation =>
  n.kind === 'script_eval' || n.kind === 'css_eval' || n.kind === 'timer' || n.kind === 'event';

/** Focus events a computation causes by moving the focus (element.focus(), blur()); the page needs focus emulation. */
export const FOCUS_EVENTS = new Set(['focus', 'blur', 'focusin', 'focusout']);

/** A synchronous dispatch begins within this of its computation's end (ms; legacy times are rounded). */
export const SYNC_MS = 1;

/**
 * Events that only the browser fires (a document's completion, messages, errors,
 * user input, focus): never taken for a script's dispatch, even when one began as a script ended.
 */
export const BROWSER_ONLY = new Set(['load', 'DOMContentLoaded', 'readystatechange', 'pageshow', 'pagehide', 'beforeunload', 'unload', 'visibilitychange', 'message', 'error', 'focus', 'blur', 'focusin', 'focusout', 'mouseout', 'mouseover', 'mousemove', 'mousedown', 'mouseup', 'click', 'keydown', 'keyup', 'touchstart', 'touchend', 'storage', 'hashchange', 'popstate', 'online', 'offline']);

/**
 * An XMLHttpRequest event that a computation (not a request, not another XHR event) precedes: a
 * synchronous XHR's readystatechange, dispatched inside the computation that sent it (legacy graphs
 * keep `comp_61_0 -> readystatechange -> comp_61_1`, the caller resuming after it; flickr.com, ups.com).
 */
export function isInlineXhrEvent(ix: GraphIndex, ev: GraphNode): boolean {
  if (ev.kind !== 'event' || !ev.eventTarget.toLowerCase().startsWith('xmlhttprequest') || (ix.partsOf.get(ev.id)?.[0] ?? ev.id) !== ev.id) return false;
  const from = (ix.parents.get(ev.id) ?? []).filter((e) => !ix.isPart(e)).map((e) => ix.byId.get(e.from)!);
  if (from.length !== 1 || !isComputation(from[0]!) || (from[0].kind === 'event' && from[0].eventTarget.toLowerCase().startsWith('xmlhttprequest'))) return false;
  // Dispatched as its caller's part ended, and the caller resumed after it (legacy graphs also hang an
  // XHR's later, asynchronous events off the computation that opened it: not these).
  const caller = from[0];
  const base = enclosingOf(caller.id);
  return ev.start - caller.end < 1 && (ix.children.get(ev.id) ?? []).some((e) => e.to !== caller.id && enclosingOf(e.to) === base && base !== e.to);
}

/** A window load event of an about: frame (its document written by its creator, or empty). */
export function isAboutFrameLoad(ix: GraphIndex, ev: GraphNode): boolean {
  return ev.kind === 'event' && ev.eventName === 'load' && ev.eventTarget.toLowerCase() === 'window' && isAboutUrl(ix.frameDoc.get(ev.frame) ?? '');
}

/**
 * When `n` is the next part of the computation that caused the focus event `ev`, dispatched the
 * synchronous XHR event `ev`, or dispatched any other event synchronously (legacy graphs keep
 * `comp_8_0 -> focus -> comp_8_1`: the script, timer or handler resumed when the handler returned;
 * session 10: www.espn.co.uk's `comp_81_3 -> resize -> comp_81_4` and `comp_63_0 -> DOMNodeInserted ->
 * comp_63_1`, the rest of a script that never ran), not the handler's work: the part that caused it (`comp_8_0`).
 */
export function resumedCaller(ix: GraphIndex, ev: GraphNode, n: GraphNode): string | undefined {
  if (ev.kind === 'script_eval') return resumedAfterCall(ix, ev, n);
  if (ev.kind !== 'event' || (ev.eventTarget.toLowerCase().startsWith('xmlhttprequest') && !isInlineXhrEvent(ix, ev)) || !isComputation(n) || (ix.partsOf.get(n.id)?.[0] ?? n.id) !== n.id) return undefined;
  const base = enclosingOf(n.id);
  if (n.id === base) return undefined;
  // An about: frame's window load: the browser fires it inside the `document.close()` of the frame's
  // creator (www.kohls.com's mPulse loader: `comp_461_2 -> load -> comp_462_1 -> comp_461_3`, the
  // creator resuming after the handler's last part).
  const aboutLoad = isAboutFrameLoad(ix, ev);
  const first = aboutLoad ? ix.byId.get(ix.partsOf.get(ev.id)?.[0] ?? ev.id) ?? ev : ev;
  const from = (ix.parents.get(first.id) ?? []).find((e) => e.from !== n.id && enclosingOf(e.from) === base)?.from;
  if (aboutLoad) return from !== undefined && first.start - ix.byId.get(from)!.end <= SYNC_MS ? from : undefined;
  // Focus and inline XHR events as the legacy graph shapes them; any other only when it began as the
  // caller's part ended and is not one only the browser fires (a script's dispatch; a script element's
  // load right after its run is the browser's, and legacy graphs hang later parts off such events too).
  const sync = FOCUS_EVENTS.has(ev.eventName) || isInlineXhrEvent(ix, ev) || (from !== undefined && !BROWSER_ONLY.has(ev.eventName) && ev.start - ix.byId.get(from)!.end <= SYNC_MS);
  return sync ? from : undefined;
}

/**
 * The part that called the script evaluation `call` (`calledBy`) when `n` is the next part of the
 * caller's computation (comp_N_k+1 of comp_N_k), resumed as the call returned (legacy graphs keep
 * `comp_24_19 -> comp_25 -> comp_24_20`, rule 15 then split: ruten.com.tw's ad frame's load handler
 * calling the page's functions). A script caller's next part was already run after the call (as a call
 * of its own); an event's or timer's was never run.
 */
function resumedAfterCall(ix: GraphIndex, call: Extract<GraphNode, { kind: 'script_eval' }>, n: GraphNode): string | undefined {
  if (!isComputation(n) || !n.part || (ix.partsOf.get(n.id)?.[0] ?? n.id) !== n.id || n.start < call.end - SYNC_MS) return undefined;
  const caller = calledBy(ix, ix.byId.get(ix.partsOf.get(call.id)?.[0] ?? call.id)!);
  return caller === `${enclosingOf(n.id)}_${n.part - 1}` ? caller : undefined;
}

/**
 * The computation part a script evaluation with no download of its own is a call from (the latest to
 * begin of its computation parents). A style sheet calls nothing: its edge to the next parser-blocking
 * script orders them (the trace builder's rule 13, the legacy graphs' `css -> script`); bild.de's inline
 * script after `partner.css` was named as the sheet in the rebuilt graph and not in the source, and
 * every later inline script's ordinal shifted by one.
 */
function calledBy(ix: GraphIndex, n: GraphNode): string | undefined {
  if (n.kind !== 'script_eval' || (ix.partsOf.get(n.id)?.[0] ?? n.id) !== n.id) return undefined;
  const from = (ix.parents.get(n.id) ?? []).map((e) => ix.byId.get(e.from)!).filter((p) => p.kind !== 'css_eval');
  if (from.some((p) => p.kind === 'resource')) return undefined;
  return from.filter(isComputation).sort((a, b) => b.start - a.start)[0]?.id;
}

/**
 * The computation whose call a script evaluation is, when it is one: a script evaluation with no
 * download of its own that a computation precedes (rules 14-16 of legacy graphs: the patched
 * Chromium logged entering a function of another script as an evaluation of that script). A trace
 * records no such call (V8 emits no slice for a call from JavaScript into JavaScript; the builder
 * folds the callbacks it does see into the computation that ran them): it is part of its caller. So is
 * the next part of a computation after a focus event it caused or a call it made (`resumedCaller`), whatever its kind.
 */
export function callerOf(ix: GraphIndex, n: GraphNode): string | undefined {
  // The next part of a computation that caused a focus event: the computation's own, after the handler.
  for (const e of ix.parents.get(n.id) ?? []) {
    const resumed = resumedCaller(ix, ix.byId.get(e.from)!, n);
    if (resumed) return resumed;
  }
  return calledBy(ix, n);
}

/**
 * The readystatechange (and other XMLHttpRequest) events of the XHR that requested `r`, first parts in
 * time order: children of the resource in trace graphs, a chain (each the child of the one before)
 * in legacy graphs, which goes on from a handler's last part (hotstar.com: three handlers after the
 * chain's DONE, each the child of the one before's second part).
 */
export function xhrEvents(ix: GraphIndex, r: ResourceNode): EventNode[] {
  const out: EventNode[] = [];
  const isXhrEvent = (n: GraphNode): n is EventNode => n.kind === 'event' && n.eventTarget.toLowerCase().startsWith('xmlhttprequest');
  const seen = new Set<string>();
  for (let from = [r.id]; from.length;) {
    from = from.flatMap((id) => childrenOf(ix, id)
      .filter((n) => isXhrEvent(n) && !seen.has(n.id))
      .map((n) => {
        seen.add(n.id);
        if ((ix.partsOf.get(n.id)?.[0] ?? n.id) === n.id) out.push(n as EventNode);
        return n.id;
      }));
  }
  return out.sort((a, b) => a.start - b.start);
}

/** Legacy graphs name every element target `Element`, trace graphs the element (`Script`, `Img`, ...). */
const eventTargetKey = (t: string): string => {
  const x = t.toLowerCase();
  return x === 'window' || x === 'document' || x.startsWith('xmlhttprequest') || x === 'messageport' ? x : 'element';
};

/**
 * An event's name as both builders can see it: the 2016 browser dispatched the `webkit`-prefixed
 * transition and animation events under their prefixed names; Chromium dispatches the unprefixed event
 * (its trace names `transitionend`) and runs listeners of the prefixed name when the target has no
 * unprefixed one (session 10).
 */
const PREFIXED: Record<string, string> = { webkitTransitionEnd: 'transitionend', webkitAnimationStart: 'animationstart', webkitAnimationIteration: 'animationiteration', webkitAnimationEnd: 'animationend' };
export const eventNameKey = (name: string): string => PREFIXED[name] ?? name;

/**
 * A URL as the browser requests it: parsed and serialised by the WHATWG URL rules (characters such as
 * `"`, `<`, `>` and spaces percent-encoded), fragment dropped. Unparsable strings stay as they are.
 */
export function stripFragment(url: string): string {
  try {
    const u = new URL(url);
    u.hash = '';
    return u.href;
  } catch {
    return url.replace(/#.*$/, '');
  }
}

/** The nodes the edges from ID lead to, in edge order (an edge to an id the graph has no node for is passed over). */
export function childrenOf(ix: GraphIndex, id: string): GraphNode[] {
  return (ix.children.get(id) ?? []).flatMap((e) => ix.byId.get(e.to) ?? []);
}

/** When the first evaluation (script or style sheet) that `r`'s download caused began; undefined when it caused none. */
export function firstEvaluationStart(ix: GraphIndex, r: ResourceNode): number | undefined {
  const starts = childrenOf(ix, r.id).filter((n) => n.kind === 'script_eval' || n.kind === 'css_eval').map((n) => n.start);
  return starts.length ? Math.min(...starts) : undefined;
}

/**
 * One part of a computation to the next: a 'split' edge between parts of one computation, or in a graph
 * imported from the original PCP layout before the importer named every such edge 'split' (it named
 * event parts' edges 25, timer parts' 21 and style sheet parts' 'legacy'), an edge between consecutive
 * parts of one activity (`comp_N_k` -> `comp_N_k+1`, graph-builder's `isNextPart`). The 'split' edge
 * from a nested computation to the part it resumes (`comp_14 -> comp_13_1`, graph-builder's
 * `isResumeEdge`) joins two computations: not a part edge.
 */
export function isPartEdge(from: GraphNode | undefined, to: GraphNode | undefined, rule: Edge['rule']): boolean {
  if (from === undefined || to === undefined) return rule === 'split';
  return (rule === 'split' && enclosingOf(from.id) === enclosingOf(to.id)) || isNextPart(from, to);
}

export function indexGraph(graph: Graph): GraphIndex {
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  const isPart = (e: Edge): boolean => isPartEdge(byId.get(e.from), byId.get(e.to), e.rule);
  const children = new Map<string, Edge[]>();
  const parents = new Map<string, Edge[]>();
  for (const e of graph.edges) {
    (children.get(e.from) ?? children.set(e.from, []).get(e.from)!).push(e);
    (parents.get(e.to) ?? parents.set(e.to, []).get(e.to)!).push(e);
  }
  const frameDoc = new Map(graph.frames.map((f) => [f.id, stripFragment(f.url)]));
  const resourceByUrl = new Map<string, ResourceNode>();
  const byStart = [...graph.nodes].sort((a, b) => a.start - b.start || a.id.localeCompare(b.id));
  for (const n of byStart) {
    if (n.kind !== 'resource') continue;
    const url = stripFragment(n.url);
    const had = resourceByUrl.get(url);
    if (!had || (had.cached && !n.cached)) resourceByUrl.set(url, n);
  }
  const chunksByDoc = new Map<string, ParseChunkNode[]>();
  for (const n of byStart) {
    if (n.kind !== 'parse_chunk') continue;
    const doc = stripFragment(n.docUrl);
    (chunksByDoc.get(doc) ?? chunksByDoc.set(doc, []).get(doc)!).push(n);
  }
  for (const list of chunksByDoc.values()) list.sort((a, b) => a.startLine - b.startLine || a.startColumn - b.startColumn || a.start - b.start);
  const partsOf = new Map<string, string[]>();
  for (const n of byStart) {
    if (!isComputation(n) || partsOf.has(n.id)) continue;
    // Walk back along split edges to the first part, then forward.
    let first = n.id;
    for (;;) {
      const prev = parents.get(first)?.find(isPart);
      if (!prev) break;
      first = prev.from;
    }
    const chain = [first];
    for (;;) {
      const next = children.get(chain.at(-1)!)?.find(isPart);
      if (!next || chain.includes(next.to)) break;
      chain.push(next.to);
    }
    for (const id of chain) partsOf.set(id, chain);
  }
  return { graph, byId, children, parents, frameDoc, resourceByUrl, chunksByDoc, partsOf, isPart };
}

/** The key of a parse chunk that declares nothing a trace records: the `n`-th such chunk after the one declaring `anchor` (or the document's `start`). */
const undeclaringChunkKey = (docName: string, anchor: string, n: number): string => `parse ${docName} @ ${anchor} +${n}`;

/** Whether `key` names a parse chunk that declares nothing a trace records (`contentKeys`: keyed by its distance to the chunk before it that does). */
export const isUndeclaringChunkKey = (key: string): boolean => /^parse .* @ .* \+\d+$/.test(key);

/**
 * The node's content key: stable across a round trip when the page did the same things. Resources
 * by URL (and order, for repeats); parse chunks by document and the first thing they declare (a
 * resource, a script), chunks that declare nothing by the declaring chunk before them; an element's
 * events by its resource, an XHR's events by its request; other computations by frame document, kind
 * and order (style sheet evaluations by sheet alone: builders split style
 * work differently); parts of one computation as `... part N` (`collapseParts` names them all as the
 * whole); the main frame's completion as `marker NAME`. With `collapseParts`, a call into another
 * script's function (`callerOf`) is named as its caller, whose part it is in a trace graph, the
 * main frame's window load and DOMContentLoaded handlers as the marker, and a memory-cache repeat
 * (`isMemoryCacheRepeat`) is not named. A download chunk is named by the parse chunk it feeds.
 */
export function contentKeys(ix: GraphIndex, collapseParts = false, manyDocs: Set<string> = requestedByManyDocs(ix)): Map<string, string> {
  const keys = new Map<string, string>();
  const seen = new Map<string, number>();
  const ordinal = (base: string): string => {
    const k = seen.get(base) ?? 0;
    seen.set(base, k + 1);
    return `${base}#${k}`;
  };
  const nodes = [...ix.graph.nodes].sort((a, b) => a.start - b.start || a.id.localeCompare(b.id));
  const names = frameNames(ix);
  const doc = (n: GraphNode): string => names.get(n.frame) ?? `frame:${n.frame}`;
  // The main frame's completion: marker nodes in trace graphs, the DOMContentLoaded and load events in legacy ones.
  const main = ix.graph.frames.find((f) => f.parent === null);
  for (const [name, id] of Object.entries(ix.graph.markers ?? {})) if (id && ix.byId.has(id)) keys.set(id, `marker ${name} ${stripFragment(main?.url ?? '')}`);
  // The main frame's window load and DOMContentLoaded handlers: the trace builder makes the event the
  // marker (one node), the legacy graphs have a zero-length marker event and a handler node beside it.
  if (collapseParts) {
    for (const n of nodes) {
      if (n.kind !== 'event' || n.frame !== main?.id || keys.has(n.id)) continue;
      const name = n.eventTarget.toLowerCase() === 'window' && n.eventName === 'load' ? 'load'
        : n.eventTarget.toLowerCase() === 'document' && n.eventName === 'DOMContentLoaded' ? 'domContentLoaded' : undefined;
      if (name) for (const p of ix.partsOf.get(n.id) ?? [n.id]) keys.set(p, `marker ${name} ${stripFragment(main.url)}`);
    }
  }
  for (const n of nodes) {
    if (keys.has(n.id)) continue;
    switch (n.kind) {
      case 'resource': if (!(collapseParts && isMemoryCacheRepeat(ix, n))) keys.set(n.id, ordinal(`resource ${stripFragment(n.url)}${manyDocs.has(stripFragment(n.url)) ? ` from ${doc(n)}` : ''}`)); break;
      case 'marker': keys.set(n.id, `marker ${n.markerName} ${doc(n)}`); break; // (other frames' markers)
      case 'parse_chunk':
      case 'download_chunk': break; // below, once what they declare has a key
      default: {
        const parts = ix.partsOf.get(n.id) ?? [n.id];
        if (parts[0] !== n.id) break; // keyed with its first part below
        if (collapseParts && callerOf(ix, n)) break; // named as its caller below
        const what = n.kind === 'script_eval' ? `script ${stripFragment(n.scriptUrl)}`
          : n.kind === 'css_eval' ? `css ${stripFragment(n.styleUrl)}`
          : n.kind === 'timer' ? `timer ${recordedDelay(n)}`
          : `event ${eventTargetKey(n.eventTarget)}.${eventNameKey(n.eventName)}`;
        const base = n.kind === 'css_eval' ? `${what} in ${doc(n)}` : ordinal(`${what} in ${doc(n)}`);
        parts.forEach((id, i) => keys.set(id, i > 0 && !collapseParts ? `${base} part ${i}` : base));
      }
    }
  }
  // An XHR's events by its request and their order counted from the last (the request's DONE): the
  // browser fires one readystatechange per state, a replay may fire fewer progress states. The first of
  // a name is `first` (HEADERS_RECEIVED), and the ones between it and the last that do no work (no child
  // but the chain's next event) are one, `between`: how many LOADING dispatches a request gets is how many
  // pieces of its body the renderer read apart, which the network sets, not the page (steamcommunity.com:
  // five in the source, three in the replay), and a run of them orders nothing that one does not.
  for (const n of nodes) {
    if (n.kind !== 'resource') continue;
    const evs = xhrEvents(ix, n);
    const chain = new Set(evs.flatMap((e) => ix.partsOf.get(e.id) ?? [e.id]));
    const workless = (ev: GraphNode): boolean => (ix.partsOf.get(ev.id) ?? [ev.id]).every((p) => (ix.children.get(p) ?? []).every((e) => chain.has(e.to)));
    for (const ev of evs) {
      const same = evs.filter((e) => e.eventName === ev.eventName);
      const fromLast = same.length - 1 - same.indexOf(ev);
      const place = fromLast === 0 ? '-0' : same.indexOf(ev) === 0 ? 'first' : workless(ev) ? 'between' : `-${fromLast}`;
      const key = `event xmlhttprequest.${ev.eventName} of ${keys.get(n.id)} ${place}`;
      (ix.partsOf.get(ev.id) ?? [ev.id]).forEach((p, i) => keys.set(p, i > 0 && !collapseParts ? `${key} part ${i}` : key));
    }
  }
  // A node's key, a call's its caller's (named below).
  const keyOf = (id: string): string | undefined => {
    for (let cur: string | undefined = id, i = 0; cur !== undefined && i < 100; i++) {
      const k = keys.get(cur);
      if (k !== undefined) return k;
      const caller: string | undefined = collapseParts ? callerOf(ix, ix.byId.get(cur)!) : undefined;
      cur = caller === undefined ? undefined : ix.partsOf.get(caller)?.[0] ?? caller;
    }
    return undefined;
  };
  // An element's events by the resource it loaded, not by their order in the frame: a replay may
  // finish downloads in another order than the recording. (Timers keyed by the computation that set
  // them did no better than by order: 32 parent disagreements against 29 on the same 45 loads.)
  // (A legacy graph's script element load hung off a parse chunk: by its script's request, `scriptElementLoads`.)
  const hungLoads = new Map([...scriptElementLoads(ix)].map(([r, ev]) => [ev.id, ix.byId.get(r)!]));
  for (const n of nodes) {
    if (n.kind !== 'event' || eventTargetKey(n.eventTarget) !== 'element' || (ix.partsOf.get(n.id)?.[0] ?? n.id) !== n.id) continue;
    const r = (ix.parents.get(n.id) ?? []).map((e) => ix.byId.get(e.from)!).find((p) => p.kind === 'resource') ?? hungLoads.get(n.id);
    const rKey = r && (keyOf(r.id) ?? (collapseParts ? keyOf(servedFrom(ix, r)?.id ?? r.id) : undefined));
    if (!rKey) continue;
    const key = ordinal(`event element.${eventNameKey(n.eventName)} of ${rKey}`);
    (ix.partsOf.get(n.id) ?? [n.id]).forEach((p, i) => keys.set(p, i > 0 && !collapseParts ? `${key} part ${i}` : key));
  }
  if (collapseParts) for (const n of nodes) nameAsCaller(ix, keys, n.id, new Set());
  // A part off its computation's main chain (a split with two successors): named after the computation.
  for (const n of nodes) {
    if (keys.has(n.id) || n.kind === 'parse_chunk' || n.kind === 'download_chunk' || n.kind === 'resource') continue;
    let first = n.id;
    for (let prev = ix.parents.get(first)?.find(ix.isPart); prev && !keys.has(first); prev = ix.parents.get(first)?.find(ix.isPart)) first = prev.from;
    const base = keys.get(first)?.replace(/ part \d+$/, '');
    keys.set(n.id, base === undefined ? ordinal(`${n.kind} in ${doc(n)}`) : collapseParts ? base : `${base} part ?`);
  }
  for (const [url, chunks] of chunksByFrameDoc(ix, names)) {
    let anchor = 'start';
    let after = 0;
    let previous: string | undefined;
    // Chunks cut only by memory-cache repeats: the tag that cut each ends it, and a builder that does not
    // cut there (no trace records a repeat) parses on to the next cut: one chunk with the one after them.
    // So are chunks cut only by an about: iframe (the 2016 log recorded `about:blank` as a request; Chromium
    // makes none, and the trace builder cuts no chunk there: www.gsmarena.com's two ad iframes).
    let pending: string[] = [];
    for (const c of chunks) {
      const all = childrenOf(ix, c.id).filter((n) => n.kind === 'resource' || n.kind === 'script_eval');
      const unrecorded = (n: GraphNode): boolean => collapseParts && (isMemoryCacheRepeat(ix, n) || (n.kind === 'resource' && isAboutUrl(n.url)));
      const declared = all.filter((n) => !unrecorded(n)).sort((a, b) => a.start - b.start)[0];
      if (!declared && all.length) {
        pending.push(c.id);
        continue;
      }
      if (declared) {
        anchor = keys.get(declared.id) ?? declared.id;
        after = 0;
        keys.set(c.id, `parse ${url} @ ${anchor}`);
      } else keys.set(c.id, undeclaringChunkKey(url, anchor, ++after));
      previous = keys.get(c.id);
      for (const id of pending) keys.set(id, previous!);
      pending = [];
    }
    // Repeats at the document's end: nothing after them, one chunk with the one before.
    for (const id of pending) keys.set(id, previous ?? undeclaringChunkKey(url, anchor, ++after));
  }
  // A document's download chunk by the parse chunk that parses its bytes (rule 3; one each, in both
  // builders), not by its index: a chunk boundary one builder has and the other not (a memory-cache
  // repeat the trace does not record) would shift every later index.
  for (const n of nodes) {
    if (n.kind !== 'download_chunk') continue;
    const r = ix.byId.get(n.resource);
    const parsed = (ix.children.get(n.id) ?? []).find((e) => ix.byId.get(e.to)?.kind === 'parse_chunk' && keys.has(e.to));
    keys.set(n.id, parsed ? `download of ${keys.get(parsed.to)}` : `download ${r?.kind === 'resource' ? stripFragment(r.url) : n.resource} #${n.index}`);
  }
  return keys;
}

/** Parse chunks by document as `frameNames` names it (a URL several frames load: each frame's apart), in document order. */
function chunksByFrameDoc(ix: GraphIndex, names: Map<string, string>): Map<string, ParseChunkNode[]> {
  const out = new Map<string, ParseChunkNode[]>();
  for (const [url, chunks] of ix.chunksByDoc) {
    for (const c of chunks) {
      const name = ix.frameDoc.get(c.frame) === url ? names.get(c.frame) ?? url : url;
      (out.get(name) ?? out.set(name, []).get(name)!).push(c);
    }
  }
  return out;
}

/**
 * URLs that several documents of the graph request (friv.com's script of two frames): keyed by their
 * document as well (`contentKeys`), since a replay may request them in the other order, and their
 * order would rename the parse chunks that declare them too. Documents as `frameNames` names them:
 * frames of one document URL apart (www.ndtv.com's GPT `container.html` frames each request `abg.js`;
 * counted by URL they were one document, and a replay loading the frames in another order renamed the
 * k-th `abg.js` and every chunk declaring one). The comparison passes both graphs' union.
 */
export function requestedByManyDocs(ix: GraphIndex): Set<string> {
  const names = frameNames(ix);
  // A frame's own document request is counted by URL as before: the builders put it in different frames
  // (the legacy graphs in the requesting frame, the trace builder in the frame it loads).
  const frameDocs = new Set([...ix.frameDoc.values()].map(stripFragment));
  const docsOf = new Map<string, Set<string>>();
  for (const n of ix.graph.nodes) {
    if (n.kind !== 'resource') continue;
    const url = stripFragment(n.url);
    const doc = frameDocs.has(url) ? ix.frameDoc.get(n.frame) : names.get(n.frame);
    (docsOf.get(url) ?? docsOf.set(url, new Set()).get(url)!).add(doc ?? `frame:${n.frame}`);
  }
  return new Set([...docsOf].flatMap(([url, docs]) => (docs.size > 1 ? [url] : [])));
}

/**
 * The delay the page passed to setTimeout: normalisation trims delays over 1 s to 1 s (thesis §3.6) and
 * keeps the recorded one in `extra.originalDelay`; a graph that was not normalised has it in `timerDelay`.
 * Timers are keyed, and synthesized, with it.
 */
export function recordedDelay(n: Extract<GraphNode, { kind: 'timer' }>): number {
  const original = n.extra?.originalDelay;
  return typeof original === 'number' && original >= 0 ? original : n.timerDelay;
}

/**
 * A resource the browser took from its memory cache after an earlier node of its URL in its frame (an
 * image used again in its document: legacy graphs keep one zero-length node per use). No request
 * is made: Chromium records nothing of it (no trace event, no DevTools event), so a trace graph never has
 * it, and the comparison leaves it out (`contentKeys` with the comparison's mappings): a parse chunk
 * that only it cut off is one chunk with the one before. An XMLHttpRequest or fetch() always makes a
 * request, recorded even when the HTTP cache answers it (login.microsoftonline.com's three `watson` XHRs,
 * the third marked cached in the trace graph): never a repeat.
 */
export function isMemoryCacheRepeat(ix: GraphIndex, n: GraphNode): boolean {
  if (n.kind !== 'resource' || !n.cached || n.requestType === 'XHR' || n.requestType === 'Fetch' || xhrEvents(ix, n).length > 0) return false;
  const first = ix.resourceByUrl.get(stripFragment(n.url));
  // Another document's use of the URL is a request of its own (friv.com: a script of two frames); so is
  // a use as another type: Blink's memory cache serves a resource only to a request of its type, the
  // HTTP cache answers the other (www.bild.de's `Adform.DHTML.js`, an `<img>`'s request, then a
  // `<script>`'s 3 ms later, the trace's second marked cached; the 2016 graph has two requests). Left out
  // as before: a cached node before its URL's first uncached one (thesaurus.com's warmed-up font), and
  // one after an XHR of its URL (imgur.com's, snapdeal.com's: the synthesizer's XHR beside the element's
  // request, one request in the 2016 graph).
  const asElement = (t: string | undefined): t is string => t !== undefined && t !== 'XHR' && t !== 'Fetch';
  if (first !== undefined && first.start <= n.start && asElement(first.requestType) && asElement(n.requestType) && first.requestType !== n.requestType) return false;
  return first !== undefined && first !== n && first.frame === n.frame;
}

/**
 * The request whose bytes a memory-cache repeat used (its URL's first node), else undefined. The
 * element a repeat served still loads: the legacy graphs hang its load off the repeat's zero-length
 * node, a trace graph off the download it waited for (steamcommunity.com's `comp_48` at 6,184.8 ms after
 * `download_57` ended at 6,184.5): the comparison keys such a load, and draws its edge, from that request.
 */
export function servedFrom(ix: GraphIndex, n: GraphNode): ResourceNode | undefined {
  return isMemoryCacheRepeat(ix, n) ? ix.resourceByUrl.get(stripFragment((n as ResourceNode).url)) : undefined;
}

/** Keys a call (and its parts) with its caller's key, the caller's first when it is itself a call. */
function nameAsCaller(ix: GraphIndex, keys: Map<string, string>, id: string, seen: Set<string>): string | undefined {
  if (keys.has(id)) return keys.get(id);
  const caller = callerOf(ix, ix.byId.get(id)!);
  if (!caller || seen.has(id)) return undefined;
  seen.add(id);
  const key = nameAsCaller(ix, keys, ix.partsOf.get(caller)?.[0] ?? caller, seen);
  if (key !== undefined) for (const p of ix.partsOf.get(id) ?? [id]) keys.set(p, key);
  return key;
}
