/**
 * The trace adapter on a real Chromium 156 trace of profiler/example-site (fixture: filtered to the
 * events the adapter reads). Expected parents are read off the site's source:
 *   index.html: <link style.css> L6, <script app.js> L7 (sync), <script async analytics.js> L8,
 *   <script defer widgets.js> L9, <img hero.png> L13, <iframe embed.html> L15, inline <script> L17 that
 *   sets a 50 ms timer which sends an XHR for news.json; style.css uses url(stripe.png);
 *   analytics.js creates an Image for beacon.png; embed.html loads embed.js and badge.png.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { parseTrace, TraceFormatError } from './reader.ts';
import { extractTrace } from './extract.ts';
import { traceToActivities } from './to-activities.ts';
import { buildFromActivities } from '../../build.ts';
import { validateGraph } from '../../format/validate.ts';
import type { Graph, GraphNode } from '../../format/types.ts';

const text = gunzipSync(readFileSync(new URL('./fixtures/example-site.trace.json.gz', import.meta.url))).toString('utf8');

function build(): Graph {
  const warnings: string[] = [];
  const acts = traceToActivities(extractTrace(parseTrace(text).events), {}, warnings);
  return buildFromActivities(acts, warnings, {}, 'chrome-trace');
}

const graph = build();
const node = (pred: (n: GraphNode) => boolean): GraphNode => {
  const n = graph.nodes.find(pred);
  assert.ok(n, 'node exists');
  return n;
};
const resource = (file: string) => node((n) => n.kind === 'resource' && new URL(n.url).pathname.endsWith(file));
const parentsOf = (id: string) => graph.edges.filter((e) => e.to === id).map((e) => ({ node: graph.nodes.find((n) => n.id === e.from)!, rule: e.rule }));

test('the graph is valid, with both frames and every page request', () => {
  assert.deepEqual(validateGraph(graph), { ok: true, errors: [] });
  assert.equal(graph.frames.length, 2);
  const files = graph.nodes.filter((n) => n.kind === 'resource').map((n) => (n.kind === 'resource' ? new URL(n.url).pathname : '')).sort();
  assert.deepEqual(files, ['/analytics.js', '/app.js', '/beacon.png', '/frame/badge.png', '/frame/embed.html', '/frame/embed.js', '/hero.png', '/index.html', '/news.json', '/stripe.png', '/style.css', '/widgets.js']);
});

test('parser-declared resources hang off the parse chunk that ends at their tag (rule 1)', () => {
  for (const [file, line] of [['style.css', 6], ['app.js', 7], ['analytics.js', 8], ['widgets.js', 9], ['hero.png', 13]] as const) {
    const ps = parentsOf(resource(file).id);
    assert.equal(ps.length, 1, file);
    const p = ps[0]!;
    assert.equal(p.rule, 1, file);
    assert.ok(p.node.kind === 'parse_chunk' && p.node.endLine === line, `${file}: parent chunk ends at line ${line}`);
  }
});

test('an image created by an async script belongs to that script, whatever initiator Chromium reports (rule 2)', () => {
  const [p] = parentsOf(resource('beacon.png').id);
  assert.equal(p?.rule, 2);
  assert.ok(p?.node.kind === 'script_eval' && p.node.scriptUrl.endsWith('/analytics.js') && p.node.scriptKind === 'async');
});

test('a CSS background image belongs to its style sheet evaluation (rule 2), the sheet to its download (rule 18)', () => {
  const [p] = parentsOf(resource('stripe.png').id);
  assert.ok(p?.node.kind === 'css_eval' && p.node.styleUrl.endsWith('/style.css'));
  assert.ok(parentsOf(p!.node.id).some((q) => q.rule === 18 && q.node.kind === 'resource' && q.node.url.endsWith('/style.css')));
});

test('timer chain: inline script -> timer (19) -> XHR (2) -> XHR load event', () => {
  const [tp] = parentsOf(resource('news.json').id);
  assert.equal(tp?.node.kind, 'timer');
  assert.equal(tp?.rule, 2);
  const timerParents = parentsOf(tp!.node.id.replace(/_\d+$/, '_0'));
  assert.ok(timerParents.some((q) => q.rule === 19 && q.node.kind === 'script_eval' && q.node.scriptKind === 'inline'));
  const xhrLoad = node((n) => n.kind === 'event' && n.eventTarget === 'XMLHTTPRequest');
  assert.ok(parentsOf(xhrLoad.id).some((q) => q.node.kind === 'resource' && q.node.url.endsWith('/news.json')));
});

test('a sync script blocks the next parse chunk (rule 4) and waits for the style sheet (rule 11)', () => {
  const app = node((n) => n.kind === 'script_eval' && n.scriptUrl.endsWith('/app.js'));
  assert.ok(app.kind === 'script_eval' && app.scriptKind === 'sync');
  assert.ok(graph.edges.some((e) => e.from === app.id && e.rule === 4));
  assert.ok(parentsOf(app.id).some((q) => q.rule === 11 && q.node.kind === 'css_eval'));
  const widgets = node((n) => n.kind === 'script_eval' && n.scriptUrl.endsWith('/widgets.js'));
  assert.ok(widgets.kind === 'script_eval' && widgets.scriptKind === 'defer');
});

test('the iframe document: its scripts and images parse in the child frame, its window load waits for them', () => {
  const embedJs = resource('embed.js');
  const child = graph.frames.find((f) => f.parent !== null)!;
  assert.equal(embedJs.frame, child.id);
  const [p] = parentsOf(embedJs.id);
  assert.ok(p?.node.kind === 'parse_chunk' && p.node.docUrl.endsWith('/frame/embed.html'));
  const load = node((n) => n.kind === 'event' && n.frame === child.id && n.eventName === 'load' && n.eventTarget === 'Window');
  const loadParents = parentsOf(load.id).map((q) => (q.node.kind === 'resource' ? new URL(q.node.url).pathname : q.node.kind));
  assert.ok(loadParents.includes('/frame/badge.png') && loadParents.includes('/frame/embed.js'));
});

test('markers: DOMContentLoaded after the last parse chunk of the main document, load after it', () => {
  assert.ok(graph.edges.some((e) => e.to === graph.markers.domContentLoaded && e.rule === 'completion:domContentLoaded'));
  assert.ok(graph.edges.some((e) => e.from === graph.markers.domContentLoaded && e.to === graph.markers.load));
});

test('DOMContentLoaded waits for the deferred script (HTML\'s "the end": deferred scripts run between the last parse chunk and it)', () => {
  const widgets = node((n) => n.kind === 'script_eval' && n.scriptUrl.endsWith('/widgets.js') && (n.part ?? 0) === 0);
  const parts = graph.nodes.filter((n) => n.kind === 'script_eval' && n.scriptUrl.endsWith('/widgets.js'));
  const last = parts.reduce((a, b) => (b.end > a.end ? b : a));
  assert.ok(widgets.kind === 'script_eval' && widgets.scriptKind === 'defer');
  assert.ok(graph.edges.some((e) => e.from === last.id && e.to === graph.markers.domContentLoaded && e.rule === 'completion:domContentLoaded'));
  const dcl = node((n) => n.id === graph.markers.domContentLoaded);
  assert.ok(dcl.start >= last.end, `the marker (${dcl.start}) is not before the script ended (${last.end})`);
});

test('a truncated trace keeps its complete events and warns; garbage is a clear error', () => {
  const cut = parseTrace(text.slice(0, Math.floor(text.length * 0.6)), 'cut.json');
  assert.ok(cut.events.length > 50 && cut.events.length < 158, `kept ${cut.events.length} of 158`);
  assert.match(cut.warnings[0] ?? '', /truncated/);
  assert.throws(() => parseTrace('not json at all', 'x.json'), TraceFormatError);
  assert.throws(() => extractTrace(parseTrace('[{"name":"X","ph":"X","ts":1,"pid":1,"tid":1}]').events), /no document request/);
});

test("a body that reached the renderer in pieces keeps them (arrivals, in time order, summing to its size); a one-piece body has none", () => {
  const pieces = graph.nodes.filter((n) => n.kind === 'resource' && n.arrivals !== undefined);
  assert.equal(pieces.length, 1, 'one resource of the example site arrived in 3 pieces');
  for (const r of pieces) {
    if (r.kind !== 'resource') continue;
    assert.equal(r.arrivals!.length, 3);
    assert.equal(r.arrivals!.reduce((a, p) => a + p.bytes, 0), r.size);
    for (let i = 1; i < r.arrivals!.length; i++) assert.ok(r.arrivals![i]!.at >= r.arrivals![i - 1]!.at);
  }
});

test("a redirected script's evaluation, which names the URL before the redirect, is its download's (rule 10)", () => {
  // As Chromium records an http script on an HSTS-preloaded host: a first send under the http URL, a
  // second of the same request id under https, and an evaluation that names the http URL. Here analytics.js
  // is first sent as /old/analytics.js, and its evaluation names that URL.
  const events = parseTrace(text).events;
  const send = events.find((e) => e.name === 'ResourceSendRequest' && String((e.args as { data: { url: string } }).data.url).endsWith('/analytics.js'))!;
  const url = (send.args as { data: { url: string } }).data.url;
  const before = url.replace('/analytics.js', '/old/analytics.js');
  const first = { ...send, ts: send.ts - 1, args: { data: { ...(send.args as { data: object }).data, url: before } } };
  const renamed = events.map((e) => {
    const data = (e.args as { data?: { url?: string } } | undefined)?.data;
    return (e.name === 'EvaluateScript' || e.name === 'v8.compile') && data?.url === url ? { ...e, args: { ...e.args, data: { ...data, url: before } } } : e;
  });
  const acts = traceToActivities(extractTrace([first, ...renamed]), {}, []);
  const g = buildFromActivities(acts, [], {}, 'chrome-trace');
  const download = g.nodes.find((n) => n.kind === 'resource' && n.url === url)!;
  const evaluation = g.nodes.find((n) => n.kind === 'script_eval' && n.scriptUrl === before)!;
  assert.ok(download && evaluation);
  assert.ok(g.edges.some((e) => e.from === download.id && e.to === evaluation.id && e.rule === 10), 'rule 10 from the download');
  assert.ok(g.edges.some((e) => e.to === download.id && e.rule === 1), 'the download still hangs off its parse chunk');
});
