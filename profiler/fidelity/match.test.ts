/**
 * The matcher on hand-made graphs. The page modelled (http://a.test/p/index.html):
 *   line 3  <script src="app.js">        -> app.js, parent: parse chunk ending at line 3 (rule 1)
 *   app.js  setTimeout(f, 100)           -> timer(100), parent: app.js eval (rule 19)
 *   timer   new Image().src = 'img.png'  -> img.png, parent: timer (rule 2)
 *   line 7  <img src="logo.png">          -> logo.png, parent: chunk ending at line 7 (rule 1)
 * app.js's evaluation is split in two parts around the timer install ('split' edge), and the HTML
 * arrives in two download chunks (rules 3 and 9): all structural, outside precision.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Edge, Graph, GraphNode } from '@pcp/graph-builder';
import { aggregate, matchPage } from './match.ts';
import type { Expected } from './expected.ts';

const PAGE = 'http://a.test/p/index.html';

function base(id: string, kind: GraphNode['kind'], start: number, frame = 'f0'): { id: string; frame: string; start: number; end: number } & { kind: typeof kind } {
  return { id, kind, frame, start, end: start + 1 };
}
const prio = { mimeType: 0, criticalPath: 0 };
function resource(id: string, url: string, start: number, frame = 'f0'): GraphNode {
  return { ...base(id, 'resource', start, frame), kind: 'resource', url, mimeType: '', size: 1, method: 'GET', status: 200, cached: false, priority: prio, onCriticalPath: false };
}

function graph(edges: Edge[], extraNodes: GraphNode[] = []): Graph {
  const nodes: GraphNode[] = [
    resource('doc', PAGE, 0),
    { ...base('dc0', 'download_chunk', 1), kind: 'download_chunk', resource: 'doc', index: 0, offset: 0, size: 100 },
    { ...base('dc1', 'download_chunk', 2), kind: 'download_chunk', resource: 'doc', index: 1, offset: 100, size: 100 },
    { ...base('pc0', 'parse_chunk', 3), kind: 'parse_chunk', docUrl: PAGE, startLine: 1, startColumn: 1, endLine: 3, endColumn: 30 },
    { ...base('pc1', 'parse_chunk', 10), kind: 'parse_chunk', docUrl: PAGE, startLine: 3, startColumn: 30, endLine: 7, endColumn: 25 },
    resource('app', 'http://a.test/p/app.js', 4),
    { ...base('se0', 'script_eval', 8), kind: 'script_eval', scriptUrl: 'http://a.test/p/app.js', scriptKind: 'sync', part: 0 },
    { ...base('se1', 'script_eval', 9), kind: 'script_eval', scriptUrl: 'http://a.test/p/app.js', scriptKind: 'sync', part: 1 },
    { ...base('t0', 'timer', 120), kind: 'timer', timerId: '1', timerDelay: 100 },
    resource('img', 'http://a.test/p/img.png', 121),
    resource('logo', 'http://a.test/p/logo.png', 11),
    ...extraNodes,
  ];
  return {
    schemaVersion: 1, page: { url: PAGE }, frames: [{ id: 'f0', url: PAGE, parent: null }], nodes, edges,
    markers: { domContentLoaded: 'pc1', load: 'pc1' }, provenance: { source: 'synthetic', tool: 'test', toolVersion: '0' },
  };
}

const STRUCTURAL: Edge[] = [
  { from: 'dc0', to: 'dc1', rule: 9 },
  { from: 'dc0', to: 'pc0', rule: 3 },
  { from: 'dc1', to: 'pc1', rule: 3 },
  { from: 'se0', to: 'se1', rule: 'split' },
];
const RIGHT: Edge[] = [
  ...STRUCTURAL,
  { from: 'pc0', to: 'app', rule: 1 },
  { from: 'app', to: 'se0', rule: 10 },
  { from: 'pc0', to: 'se0', rule: 12 },
  { from: 'se1', to: 'pc1', rule: 4 },
  { from: 'pc0', to: 'pc1', rule: 3 },
  { from: 'se0', to: 't0', rule: 19 },
  { from: 't0', to: 'img', rule: 2 },
  { from: 'pc1', to: 'logo', rule: 1 },
];

const EXPECTED: Expected = {
  description: 'hand-made',
  rules: [1, 2, 4, 10, 19],
  events: [],
  resources: [
    { url: 'app.js', parent: { kind: 'parse_chunk', docUrl: 'index.html', line: 3 } },
    { url: 'img.png', parent: { kind: 'timer', delay: 100 } },
    { url: 'logo.png', parent: { kind: 'parse_chunk', docUrl: 'index.html', line: 7 } },
  ],
  edges: [
    { from: { kind: 'resource', url: 'app.js' }, to: { kind: 'script_eval', url: 'app.js' }, rule: 10 },
    { from: { kind: 'parse_chunk', docUrl: 'index.html', line: 3 }, to: { kind: 'script_eval', url: 'app.js' }, rule: 12 },
    { from: { kind: 'script_eval', url: 'app.js' }, to: { kind: 'parse_chunk', docUrl: 'index.html', line: 7 }, rule: 4 },
    { from: { kind: 'parse_chunk', docUrl: 'index.html', line: 3 }, to: { kind: 'parse_chunk', docUrl: 'index.html', line: 7 }, rule: 3 },
    { from: { kind: 'script_eval', url: 'app.js' }, to: { kind: 'timer', delay: 100 }, rule: 19 },
  ],
};

test('a graph that is exactly the expectation scores 1 everywhere; structural edges are out of scope', () => {
  const s = matchPage(graph(RIGHT), EXPECTED, { pageUrl: PAGE });
  assert.deepEqual(s.resources.misses, []);
  assert.deepEqual(s.edges.misses, []);
  assert.equal(s.resourceShare, 1);
  assert.equal(s.recall, 1);
  // In scope: in-edges of app, img, logo (3 resources), se0 (2: rules 10, 12), pc1 (2: rules 4, 3;
  // the download chunk edge dc1->pc1 is structural), t0 (1): 8 edges, all expected.
  assert.equal(s.precision.inScope, 8);
  assert.equal(s.edgePrecision, 1);
  assert.deepEqual(s.unlistedResources, []);
});

test('a wrong resource parent costs the resource share, recall and precision', () => {
  // img.png attributed to app.js's evaluation (the initiator a builder might take) instead of the timer.
  const wrong = RIGHT.map((e) => (e.to === 'img' ? { from: 'se1', to: 'img', rule: 2 } : e));
  const s = matchPage(graph(wrong), EXPECTED, { pageUrl: PAGE });
  assert.equal(s.resources.withExpectedParent, 2);
  assert.equal(s.resourceShare, 2 / 3);
  assert.equal(s.recall, 7 / 8); // 3 resources + 5 edges expected, 7 found
  assert.equal(s.edgePrecision, 7 / 8); // the se1 -> img edge is in scope and unexpected
  assert.deepEqual(s.precision.extras, ['se1 -> img [2]']);
  assert.match(s.resources.misses[0]!.reason, /graph parents: se1\[2\]/);
});

test('a named rule must agree; a missing node is reported as such; unlisted resources are listed', () => {
  const relabelled = RIGHT.map((e) => (e.to === 't0' ? { ...e, rule: 20 } : e));
  const extra = resource('x', 'http://a.test/p/extra.css', 50);
  const s = matchPage(graph([...relabelled, { from: 'pc1', to: 'x', rule: 1 }], [extra]), {
    ...EXPECTED,
    edges: [...EXPECTED.edges, { from: { kind: 'event', name: 'load', target: 'window' }, to: { kind: 'timer', delay: 100 } }],
  }, { pageUrl: PAGE });
  assert.deepEqual(s.edges.misses.map((m) => m.reason), ['edge present with rule 20', 'no node for event(window.load)']);
  assert.deepEqual(s.unlistedResources, ['http://a.test/p/extra.css']);
});

test('nth picks among repeated activities, parts of one computation stay one activity, frameUrl restricts', () => {
  const FRAME = 'http://b.test/f.html';
  const extra: GraphNode[] = [
    { ...base('t1', 'timer', 300), kind: 'timer', timerId: '2', timerDelay: 100 },
    { ...base('t1b', 'timer', 301), kind: 'timer', timerId: '2', timerDelay: 100, part: 1 },
    resource('img2', 'http://a.test/p/img.png', 302),
    { ...base('ft', 'timer', 40, 'f1'), kind: 'timer', timerId: '9', timerDelay: 100 },
  ];
  const g = graph([...RIGHT, { from: 't1b', to: 'img2', rule: 2 }, { from: 't0', to: 't1', rule: 21 }], extra);
  g.frames.push({ id: 'f1', url: FRAME, parent: 'f0' });
  const exp: Expected = {
    description: 'timer chain', rules: [21], events: [],
    resources: [
      { url: 'img.png', nth: 0, parent: { kind: 'timer', delay: 100, frameUrl: 'index.html', nth: 0 } },
      { url: 'img.png', nth: 1, parent: { kind: 'timer', delay: 100, frameUrl: 'index.html', nth: 1 } },
    ],
    edges: [{ from: { kind: 'timer', delay: 100, frameUrl: 'index.html', nth: 0 }, to: { kind: 'timer', delay: 100, frameUrl: 'index.html', nth: 1 }, rule: 21 }],
  };
  const s = matchPage(g, exp, { pageUrl: PAGE });
  assert.equal(s.resourceShare, 1);
  assert.equal(s.recall, 1);
  // The frame's own 100 ms timer (ft) would be timer #0 without frameUrl; with it, the chain matches.
  const swapped = matchPage(g, { ...exp, resources: [{ url: 'img.png', nth: 1, parent: { kind: 'timer', delay: 100, nth: 2 } }], edges: [] }, { pageUrl: PAGE });
  assert.equal(swapped.resourceShare, 1, 'without frameUrl, ft (start 40) is #0, t0 #1, t1 (+part t1b) #2');
  assert.equal(aggregate([s, swapped]).resources, 3);
});

test('{{origin:x}} placeholders expand before URLs resolve', () => {
  const s = matchPage(graph(RIGHT), {
    ...EXPECTED, edges: [],
    resources: [{ url: '{{origin:a}}/p/app.js', parent: { kind: 'parse_chunk', docUrl: '{{origin:a}}/p/index.html', line: 3 } }],
  }, { pageUrl: PAGE, expand: (t) => t.replaceAll('{{origin:a}}', 'http://a.test') });
  assert.equal(s.resourceShare, 1);
  const agg = aggregate([s, matchPage(graph(RIGHT), EXPECTED, { pageUrl: PAGE })]);
  assert.equal(agg.resources, 4);
  assert.equal(agg.resourceShare, 1);
});

test("generic 'Element' events match a tag target, disambiguated by subject; line 'last' is the final chunk", () => {
  // Two element load events (as a trace-built graph names them): one after logo.png, one after img.png.
  const extra: GraphNode[] = [
    { ...base('ev1', 'event', 20), kind: 'event', eventName: 'load', eventTarget: 'Element' },
    { ...base('ev2', 'event', 130), kind: 'event', eventName: 'load', eventTarget: 'Element' },
    resource('after', 'http://a.test/p/after.png', 131),
  ];
  const edges: Edge[] = [...RIGHT, { from: 'logo', to: 'ev1', rule: 'event:img.load' }, { from: 'img', to: 'ev2', rule: 'event:img.load' }, { from: 'ev2', to: 'after', rule: 2 }];
  const exp: Expected = {
    description: 'element events', rules: [], events: ['img.load'],
    resources: [{ url: 'after.png', parent: { kind: 'event', name: 'load', target: 'img', subject: 'img.png' } }],
    edges: [{ from: { kind: 'resource', url: 'logo.png' }, to: { kind: 'event', name: 'load', target: 'img', subject: 'logo.png' } }],
  };
  const s = matchPage(graph(edges, extra), exp, { pageUrl: PAGE });
  assert.equal(s.resourceShare, 1);
  assert.equal(s.recall, 1);
  // The wrong subject picks ev1, which is not after.png's parent.
  const wrong = matchPage(graph(edges, extra), { ...exp, edges: [], resources: [{ url: 'after.png', parent: { kind: 'event', name: 'load', target: 'img', subject: 'logo.png' } }] }, { pageUrl: PAGE });
  assert.equal(wrong.resourceShare, 0);
  // 'window' never matches an Element node.
  const win = matchPage(graph(edges, extra), { ...exp, edges: [], resources: [{ url: 'after.png', parent: { kind: 'event', name: 'load', target: 'window' } }] }, { pageUrl: PAGE });
  assert.match(win.resources.misses[0]!.reason, /no node for event\(window\.load\)/);
  // The last parse chunk of index.html is pc1 (lines 3-7).
  const last = matchPage(graph(RIGHT), { ...exp, resources: [{ url: 'logo.png', parent: { kind: 'parse_chunk', docUrl: 'index.html', line: 'last' } }], edges: [] }, { pageUrl: PAGE });
  assert.equal(last.resourceShare, 1);
});
