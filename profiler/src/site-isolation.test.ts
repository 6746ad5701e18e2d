/**
 * The process model against real Chromium: a page on one loopback host with an iframe from another site
 * (a second host mapped to loopback by --host-resolver-rules, as the replay reaches hosts) whose timer
 * posts a message to the page. Without site isolation (the 2016 model, `siteIsolation: false`) the frame
 * runs in the page's renderer and the trace's async-task flow links the postMessage to the handler; with
 * Chromium's own model the frame is a child target of its own and the handler has no parent (a warning
 * says why). Fixture: src/fixtures/cross-site-message.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildFromTrace, type Graph, type GraphNode } from '@pcp/graph-builder';
import { capturePage } from './capture.ts';
import { readFramesFile, readListeners } from './bundle.ts';
import { NO_SITE_ISOLATION_SWITCH } from './chromium.ts';
import { startTestServer, type TestServer } from '../test-server/server.ts';

const FIXTURE = fileURLToPath(new URL('./fixtures/cross-site-message/', import.meta.url));
let page: TestServer;
let ads: TestServer;
/** Google sign-in's origin (9gag.com's relay frame), which Chromium isolates as a built-in isolated origin. */
let gaia: TestServer;
let work: string;
before(async () => {
  page = await startTestServer({ root: FIXTURE, origins: [{ name: 'www' }] });
  ads = await startTestServer({ root: FIXTURE, origins: [{ name: 'www' }], domain: 'ads.test' });
  gaia = await startTestServer({ root: FIXTURE, origins: [{ name: 'accounts', tls: true }], domain: 'google.com' });
  work = mkdtempSync(join(tmpdir(), 'pcp-site-isolation-test-'));
});
after(async () => {
  await Promise.all([page.close(), ads.close(), gaia.close()]);
  rmSync(work, { recursive: true, force: true });
});

const load = async (name: string, siteIsolation: boolean | undefined, frameOrigin = (): string => ads.urls.www!) => {
  const dir = join(work, name);
  const frameUrl = `${frameOrigin()}sender.html`;
  const url = `${page.urls.www}index.html?frame=${encodeURIComponent(frameUrl)}`;
  const rules = [page, ads, gaia].map((s) => s.hostResolverRules).join(', ');
  const { meta } = await capturePage(url, dir, { hostResolverRules: rules, ignoreCertificateErrors: true, quietMs: 500, siteIsolation });
  assert.equal(meta.status, 'complete', meta.message);
  const frames = readFramesFile(dir)!.frames;
  const sender = frames.find((f) => f.url === frameUrl);
  assert.ok(sender, `the cross-site frame is in frames.json (${frames.map((f) => f.url).join(', ')})`);
  const { graph, warnings } = buildFromTrace(dir);
  return { dir, meta, sender, graph, warnings };
};
const incoming = (g: Graph, n: GraphNode): GraphNode[] => g.edges.filter((e) => e.to === n.id).map((e) => g.nodes.find((m) => m.id === e.from)!);
/** The handler that requested got-hello.png: the image's parent. */
const handlerOf = (g: Graph): GraphNode => {
  const img = g.nodes.find((n) => n.kind === 'resource' && n.url.endsWith('/got-hello.png'));
  assert.ok(img, 'the handler requested the image');
  const parents = incoming(g, img);
  assert.equal(parents.length, 1, 'the image has one parent');
  assert.equal(parents[0]!.kind, 'event');
  return parents[0]!;
};
/** The frame's window listeners as listeners.json recorded them (the frame's own, in either model). */
const frameLoadListener = (dir: string, frameId: string): boolean =>
  (readListeners(dir) ?? []).some((l) => l.frameId === frameId && l.target === 'window' && l.type === 'load');

const sharedRenderer = async (name: string, frameOrigin?: () => string): Promise<void> => {
  const { dir, meta, sender, graph, warnings } = await load(name, false, frameOrigin);
  assert.equal(meta.options.siteIsolation, false);
  assert.ok(meta.commandLine!.includes(NO_SITE_ISOLATION_SWITCH));
  assert.equal(meta.counts.childTargets, 0, 'no out-of-process iframe target was attached');
  assert.equal(sender.outOfProcess, false);
  assert.ok(frameLoadListener(dir, sender.id), 'the in-process frame\'s window listener is recorded through its own context');
  const handler = handlerOf(graph);
  assert.equal(handler.kind === 'event' && handler.eventName, 'message');
  const from = incoming(graph, handler);
  const senderFrame = graph.frames.find((f) => f.url === sender.url);
  assert.ok(senderFrame && senderFrame.parent !== null, 'the graph has the frame, under the page');
  assert.ok(from.some((n) => n.kind === 'timer' && n.frame === senderFrame.id), `the message is drawn from the frame's timer (${from.map((n) => `${n.kind}@${n.frame}`).join(', ')})`);
  assert.ok(!warnings.some((w) => /--no-site-isolation/.test(w)), warnings.join('\n'));
};

test('without site isolation the cross-site frame shares the page renderer, and its postMessage is the handler\'s parent', () => sharedRenderer('shared'));

test('without site isolation a frame of Google sign-in\'s origin (isolated by Chromium even then, unless the Gaia origin is moved) shares it too', () =>
  sharedRenderer('shared-gaia', () => gaia.urls.accounts!));

test('with Chromium\'s own site isolation the frame is a child target, and the handler has no parent (and a warning names the option)', async () => {
  const { dir, meta, sender, graph, warnings } = await load('isolated', undefined);
  assert.equal(meta.options.siteIsolation, true);
  assert.ok(!meta.commandLine!.includes(NO_SITE_ISOLATION_SWITCH));
  assert.ok(meta.counts.childTargets >= 1, 'the cross-site iframe was attached as its own target');
  assert.equal(sender.outOfProcess, true);
  assert.ok(frameLoadListener(dir, sender.id), 'the out-of-process frame\'s window listener is recorded through its target');
  const handler = handlerOf(graph);
  assert.deepEqual(incoming(graph, handler), [], 'nothing in the trace links the message to its sender');
  assert.ok(warnings.some((w) => /1 iframe\(s\) ran in a renderer of their own.*--no-site-isolation/.test(w)), warnings.join('\n'));
});
