/**
 * Events the trace shows only indirectly, on real Chromium 156 bundles of ground-truth pages
 * (profiler/test-sites; fixtures keep only what the adapter reads). Expected parents come from the pages'
 * sources, as in their expected.json.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { readTraceInput } from './index.ts';
import { parseTrace } from './reader.ts';
import { extractTrace } from './extract.ts';
import { traceToActivities } from './to-activities.ts';
import { buildFromActivities } from '../../build.ts';
import { validateGraph } from '../../format/validate.ts';
import type { Graph, GraphNode } from '../../format/types.ts';

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

function graphOf(name: string): Graph {
  const input = readTraceInput(fixture(name));
  const warnings = [...input.warnings];
  const g = buildFromActivities(input.acts, warnings, {}, input.kind);
  assert.deepEqual(validateGraph(g), { ok: true, errors: [] });
  return g;
}

function helpers(g: Graph) {
  const byId = new Map(g.nodes.map((n) => [n.id, n]));
  const resource = (file: string): GraphNode => {
    const n = g.nodes.find((x) => x.kind === 'resource' && new URL(x.url).pathname.endsWith(`/${file}`));
    assert.ok(n, `resource ${file}`);
    return n;
  };
  const parents = (id: string) => g.edges.filter((e) => e.to === id && e.rule !== 'split').map((e) => ({ node: byId.get(e.from)!, rule: e.rule }));
  /** A split computation's first part (the node itself when not split). */
  const first = (n: GraphNode): GraphNode => {
    for (let cur = n; ; ) {
      const prev = g.edges.find((e) => e.to === cur.id && e.rule === 'split');
      if (!prev) return cur;
      cur = byId.get(prev.from)!;
    }
  };
  const label = (n: GraphNode) => (n.kind === 'event' ? `${n.eventTarget}.${n.eventName}` : n.kind);
  return { resource, parents, first, label };
}

test('an image set up by a listener of a script\'s own dispatchEvent belongs to that event; the event to the script (rule 25)', () => {
  const g = graphOf('r25-event-specific');
  const { resource, parents, first } = helpers(g);
  const [p] = parents(resource('on-change.png').id);
  assert.ok(p && p.node.kind === 'event' && p.node.eventName === 'change', 'parent is the change event');
  const [q] = parents(first(p.node).id);
  assert.equal(q?.rule, 25);
  assert.ok(q?.node.kind === 'script_eval' && q.node.scriptKind === 'inline');
});

test('a postMessage from an iframe: the parent\'s message event follows the sender\'s script (async-task flow)', () => {
  const g = graphOf('ev-message');
  const { resource, parents, first } = helpers(g);
  const [p] = parents(resource('got-hello.png').id);
  assert.ok(p && p.node.kind === 'event' && p.node.eventName === 'message' && p.node.eventTarget === 'Window');
  const [q] = parents(first(p.node).id);
  assert.ok(q?.node.kind === 'script_eval' && q.node.scriptUrl.endsWith('/sender.html'));
});

test('a MessageChannel message: the port\'s message event follows the script that posted it (posted-task flow)', () => {
  const g = graphOf('ev-messageport');
  const { resource, parents, first } = helpers(g);
  const [p] = parents(resource('port-ping.png').id);
  assert.ok(p && p.node.kind === 'event' && p.node.eventName === 'message' && p.node.eventTarget === 'MessagePort');
  const [q] = parents(first(p.node).id);
  assert.equal(q?.rule, 25);
  assert.ok(q?.node.kind === 'script_eval' && q.node.scriptKind === 'inline');
});

test('without posted-task flows the MessagePort handler is an unlinked callback, and the build says why', () => {
  const dir = fixture('ev-messageport');
  const events = parseTrace(gunzipSync(readFileSync(`${dir}/trace.json.gz`)).toString('utf8')).events;
  const load = extractTrace(events.filter((e) => e.name !== 'SequenceManager PostTask' && e.name !== 'ThreadControllerImpl::RunTask'));
  const callback = traceToActivities(load).computations.find((c) => c.kind === 'Event' && c.eventName === 'callback');
  assert.ok(callback, 'the handler stays a window callback');
  assert.equal(callback.triggeredBy.kind, 'none');
  assert.ok(load.warnings.some((w) => w.includes('--task-flows')), load.warnings.join('\n'));
});

test('an uncaught exception fires window error inside the throwing script; its handler\'s image is the event\'s', () => {
  const g = graphOf('ev-error');
  const { resource, parents, first } = helpers(g);
  const [p] = parents(resource('window-error.png').id);
  assert.ok(p && p.node.kind === 'event' && p.node.eventName === 'error' && p.node.eventTarget === 'Window', 'parent is window error');
  const [q] = parents(first(p.node).id);
  assert.ok(q?.node.kind === 'script_eval' && q.node.scriptUrl.endsWith('/throws.js'));
  // The element error of the missing image stays the image's.
  const [r] = parents(resource('fallback.png').id);
  assert.ok(r && r.node.kind === 'event' && r.node.eventName === 'error' && r.node.eventTarget !== 'Window');
});

test('Document and Window DOMContentLoaded handlers are told apart by the window\'s listeners, and chained', () => {
  const g = graphOf('ev-document-completion');
  const { resource, parents, first, label } = helpers(g);
  const doc = parents(resource('dcl-document.png').id)[0]!.node;
  const win = parents(resource('dcl-window.png').id)[0]!.node;
  assert.equal(label(doc), 'Document.DOMContentLoaded');
  assert.equal(label(win), 'Window.DOMContentLoaded');
  // The chain edge leaves the document event's last part.
  const docComp = first(doc).id.replace(/_0$/, '');
  assert.ok(parents(first(win).id).some((e) => e.node.id === docComp || e.node.id.startsWith(`${docComp}_`)), 'window DCL follows document DCL');
});

test('without listeners.json both handlers stay with the one DOMContentLoaded dispatch', () => {
  const dir = fixture('ev-document-completion');
  const load = extractTrace(parseTrace(gunzipSync(readFileSync(`${dir}/trace.json.gz`)).toString('utf8')).events);
  const dcl = traceToActivities(load).computations.filter((c) => c.eventName === 'DOMContentLoaded');
  assert.deepEqual(dcl.map((c) => c.eventTarget), ['Document']);
});

test('a script that creates an element in another frame waits for that frame\'s last download chunk (rule 22)', () => {
  const g = graphOf('r22-frame-script');
  const { parents } = helpers(g);
  const script = g.nodes.find((n) => n.kind === 'script_eval' && n.scriptUrl.endsWith('/touch-frame.js'));
  assert.ok(script);
  const r22 = parents(script.id).filter((e) => e.rule === 22);
  assert.equal(r22.length, 1);
  assert.equal(r22[0]!.node.kind, 'download_chunk');
});

test("a frame's document has a request side from the browser's navigation request (the bundle's DevTools log), as the main document", () => {
  for (const [name, file] of [['r22-frame-script', '/frame.html'], ['ev-message', '/sender.html']] as const) {
    const doc = readTraceInput(fixture(name)).acts.resources.find((r) => r.requestType === 'Document' && r.url.endsWith(file));
    const d = doc?.browserDelay;
    assert.ok(d?.request !== undefined && d.request >= 0 && d.request < 50, `${name}: request side ${d?.request}`);
    assert.ok(d.commit !== undefined, `${name}: the commit is still recorded`);
  }
});
