/**
 * Synthetic page-load graphs (format v1) of any size, for the benchmark's 20,000-node case and the
 * hostile-strings test. Shaped like a real load: per frame, the document downloads in chunks, a chain
 * of parse chunks discovers resources (each with download chunks), scripts evaluate and block the
 * next parse chunk, scripts set timers and events fire; markers close the main frame. Deterministic
 * for a seed; times always respect dependencies (a child starts after its parents end).
 */
import type { Edge, Frame, Graph, GraphNode, ResourceNode } from '@pcp/graph-builder';

function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

export interface SyntheticOptions {
  seed?: number;
  /** Strings to use as URLs / names instead of plain ones (cycled). */
  names?: string[];
  /** Nodes per frame before a new iframe starts. */
  frameSize?: number;
}

export function syntheticGraph(target: number, opt: SyntheticOptions = {}): Graph {
  const rand = rng(opt.seed ?? 42);
  const names = opt.names;
  let nameNo = 0;
  const name = (plain: string): string => (names ? `${names[nameNo++ % names.length]}${plain}` : plain);
  const nodes: GraphNode[] = [];
  const edges: Edge[] = [];
  const frames: Frame[] = [];
  const frameSize = opt.frameSize ?? 2500;
  let id = 0;
  const nid = (p: string): string => `${p}_${id++}`;
  const resource = (frame: string, url: string, mime: string, start: number, dur: number): ResourceNode => {
    const r: ResourceNode = {
      id: nid('download'),
      kind: 'resource',
      frame,
      start,
      end: start + dur,
      url,
      mimeType: mime,
      size: Math.round(1000 + rand() * 90000),
      method: 'GET',
      status: 200,
      cached: false,
      serverDelay: Math.round(rand() * 40),
      responseStart: start + dur * 0.4,
      priority: { mimeType: 1 + Math.floor(rand() * 5), criticalPath: 1 + Math.floor(rand() * 9) },
      onCriticalPath: false,
    };
    nodes.push(r);
    return r;
  };
  const chunks = (r: ResourceNode, count: number): string[] => {
    const ids: string[] = [];
    const first = r.responseStart ?? r.start;
    const step = (r.end - first) / count;
    for (let k = 0; k < count; k++) {
      const c: GraphNode = { id: nid('chunk'), kind: 'download_chunk', frame: r.frame, start: first + k * step, end: first + (k + 1) * step, resource: r.id, index: k, offset: k * 1000, size: 1000 };
      nodes.push(c);
      edges.push({ from: k === 0 ? r.id : ids[k - 1]!, to: c.id, rule: k === 0 ? 1 : 'split' });
      ids.push(c.id);
    }
    return ids;
  };

  let t = 0;
  let dcl = '';
  let load = '';
  let parentFrame: string | null = null;
  let opener = '';
  let mainParses: Extract<GraphNode, { kind: 'parse_chunk' }>[] = [];
  for (let f = 0; nodes.length < target; f++) {
    const frame = String(f);
    const docUrl = name(f === 0 ? 'http://synthetic.test/' : `http://frame${f}.test/`);
    frames.push({ id: frame, url: docUrl, parent: parentFrame });
    const doc = resource(frame, docUrl, 'text/html', t, 40 + rand() * 60);
    if (opener) edges.push({ from: opener, to: doc.id, rule: 3 });
    let prev = chunks(doc, 3).at(-1)!;
    let clock = nodes[nodes.length - 1]!.end;
    const stop = Math.min(target, nodes.length + frameSize);
    let line = 1;
    while (nodes.length < stop - 6) {
      const p: GraphNode = { id: nid('parse'), kind: 'parse_chunk', frame, start: clock, end: clock + 0.2 + rand() * 3, docUrl, startLine: line, startColumn: 0, endLine: line + 5, endColumn: 10 };
      line += 6;
      nodes.push(p);
      edges.push({ from: prev, to: p.id, rule: 2 });
      prev = p.id;
      clock = p.end;
      // A parse chunk discovers a few resources (real documents have far fewer parse chunks than
      // downloads and evaluations); a sync script among them blocks the parser.
      const discoveries = 1 + Math.floor(rand() * 5);
      let blocker = '';
      for (let d = 0; d < discoveries && nodes.length < stop - 6; d++) {
        const roll = rand();
        if (roll < 0.85) {
          const js = roll < 0.3;
          const r = resource(frame, name(`http://cdn${Math.floor(rand() * 4)}.test/${js ? 'app' : 'img'}${id}.${js ? 'js' : 'png'}`), js ? 'application/javascript' : 'image/png', p.end + rand() * 5, 20 + rand() * 300);
          edges.push({ from: p.id, to: r.id, rule: 4 });
          const last = chunks(r, 1 + Math.floor(rand() * 3)).at(-1)!;
          if (js) {
            const start = Math.max(r.end, clock);
            const ev: GraphNode = { id: nid('comp'), kind: 'script_eval', frame, start, end: start + 1 + rand() * 20, scriptUrl: r.url, scriptKind: blocker ? 'async' : 'sync' };
            nodes.push(ev);
            edges.push({ from: last, to: ev.id, rule: 9 }, { from: p.id, to: ev.id, rule: 7 });
            if (!blocker) {
              blocker = ev.id; // the first sync script blocks the parser
              clock = ev.end;
            }
            if (rand() < 0.3) {
              const tm: GraphNode = { id: nid('timer'), kind: 'timer', frame, start: ev.end + 50 + rand() * 500, end: 0, timerId: String(id), timerDelay: 50 };
              tm.end = tm.start + 1 + rand() * 5;
              nodes.push(tm);
              edges.push({ from: ev.id, to: tm.id, rule: 16 });
            }
          }
        } else {
          const e: GraphNode = { id: nid('event'), kind: 'event', frame, start: p.end, end: p.end + 0.5, eventName: name('readystatechange'), eventTarget: 'document' };
          nodes.push(e);
          edges.push({ from: p.id, to: e.id, rule: 'event:document.readystatechange' });
        }
      }
      if (blocker) prev = blocker;
    }
    const d: GraphNode = { id: nid('marker'), kind: 'marker', frame, start: clock, end: clock, markerName: 'domContentLoaded' };
    const l: GraphNode = { id: nid('marker'), kind: 'marker', frame, start: clock + 5, end: clock + 5, markerName: 'load' };
    nodes.push(d, l);
    edges.push({ from: prev, to: d.id, rule: 'completion:dcl' }, { from: d.id, to: l.id, rule: 'completion:load' });
    if (f === 0) {
      dcl = d.id;
      load = l.id;
    }
    // Iframes load alongside the main document: each is opened by an early parse chunk of the main frame.
    if (f === 0) mainParses = nodes.filter((x) => x.kind === 'parse_chunk').map((x) => x as Extract<GraphNode, { kind: 'parse_chunk' }>);
    const openerNode = mainParses[Math.floor(rand() * Math.min(mainParses.length, 50))]!;
    opener = openerNode.id;
    parentFrame = '0';
    t = openerNode.end;
  }
  return {
    schemaVersion: 1,
    page: { url: frames[0]!.url },
    frames,
    nodes,
    edges,
    markers: { domContentLoaded: dcl, load },
    root: nodes[0]!.id,
    provenance: { source: 'synthetic', tool: 'graph-viewer/test/synthetic.ts', toolVersion: '0.1.0' },
  };
}
