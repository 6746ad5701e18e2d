import { test } from 'node:test';
import assert from 'node:assert/strict';
import { synthesizeSite } from './site.ts';
import { callerOf, indexGraph } from './graph-index.ts';
import { failedElementsPage, graphOf, res, scriptPage } from './testing.ts';

const PAGE = 'http://www.pcp.test/';
const HOSTILE = 'http://cdn.pcp.test/a"><script>window.pwned=1</script><img src=x onerror=alert(1)>.png';
/** As the browser will request it (and as the site serves it). */
const HOSTILE_REQUESTED = new URL(HOSTILE).href;
const HOSTILE_EVENT = 'load",function(){window.pwned=1});</script><script>window.pwned=2//';

/** A page: chunk 0 declares a script at line 3 col 5; the script (20 ms) inserts an image, sets a 50 ms timer that fetches JSON with a handler; chunk 1 has an inline script. */
function sample() {
  return graphOf(PAGE, [
    res('doc', PAGE, 'text/html', 3000, { start: 0, end: 100 }),
    { id: 'd0', kind: 'download_chunk', resource: 'doc', index: 0, offset: 0, size: 200, start: 10, end: 40 },
    { id: 'd1', kind: 'download_chunk', resource: 'doc', index: 1, offset: 200, size: 2800, start: 40, end: 100 },
    { id: 'p0', kind: 'parse_chunk', docUrl: PAGE, startLine: 1, startColumn: 16, endLine: 3, endColumn: 5 },
    { id: 'p1', kind: 'parse_chunk', docUrl: PAGE, startLine: 9, startColumn: 1, endLine: 12, endColumn: 3 },
    res('js', 'http://cdn.pcp.test/app.js', 'application/javascript', 5000, { start: 50, end: 80 }),
    { id: 's', kind: 'script_eval', scriptUrl: 'http://cdn.pcp.test/app.js', scriptKind: 'sync', start: 80, end: 100 },
    res('img', HOSTILE, 'image/png', 1234),
    { id: 't', kind: 'timer', timerId: '1', timerDelay: 50, start: 150, end: 155 },
    res('json', 'http://api.pcp.test/data.json', 'application/json', 300, { requestType: 'XHR', serverDelay: 25 }),
    { id: 'x', kind: 'event', eventName: 'readystatechange', eventTarget: 'XMLHttpRequest', start: 200, end: 203 },
    { id: 'inl', kind: 'script_eval', scriptUrl: PAGE, scriptKind: 'inline', start: 110, end: 112 },
    { id: 'w', kind: 'event', eventName: 'load', eventTarget: 'Window', start: 300, end: 304 },
    { id: 'h', kind: 'event', eventName: HOSTILE_EVENT, eventTarget: 'Document', start: 310, end: 311 },
    { id: 'odd', kind: 'event', eventName: 'DOMNodeInserted', eventTarget: 'Element', start: 400, end: 401 },
  ], [
    ['doc', 'd0', 'resource-chunk'], ['d0', 'd1', 9], ['d0', 'p0', 3], ['d1', 'p1', 3], ['p0', 'p1', 3],
    ['p0', 'js', 1], ['js', 's', 10], ['s', 'p1', 4], ['s', 'img', 2], ['s', 't', 19], ['t', 'json', 2],
    ['json', 'x', 25], ['p1', 'inl', 12], ['img', 'w', 25], ['s', 'odd', 25], ['p1', 'h', 25],
  ]);
}

test('every resource is served with its MIME type, status, size and server delay', () => {
  const site = synthesizeSite(sample());
  assert.equal(site.pageUrl, PAGE);
  assert.equal(site.responses[0]!.url, PAGE);
  const by = new Map(site.responses.map((r) => [r.url, r]));
  assert.equal(by.size, 4);
  assert.equal(by.get('http://cdn.pcp.test/app.js')!.body.length, 5000);
  assert.equal(by.get(HOSTILE_REQUESTED)!.body.length, 1234);
  assert.equal(by.get(HOSTILE_REQUESTED)!.body.toString('latin1', 1, 4), 'PNG');
  assert.equal(by.get('http://api.pcp.test/data.json')!.delayMs, 25);
  assert.equal(by.get(PAGE)!.body.length, 3000);
});

test('the document puts the script tag at the chunk end position and the inline script after it', () => {
  const html = synthesizeSite(sample()).responses[0]!.body.toString();
  const lines = html.split('\n');
  assert.equal(lines[2]!.indexOf('<script src="http://cdn.pcp.test/app.js"></script>'), 4); // line 3, column 5
  assert.equal(lines.length >= 12, true);
  assert.match(lines[11]!, /^  <script>\(function\(\)\{.*B\(2\);\}\)\(\)<\/script>/);
});

test('the document is trickled at the download chunks, each bringing its parse chunk', () => {
  const doc = synthesizeSite(sample()).responses[0]!;
  const html = doc.body.toString();
  assert.deepEqual(doc.chunks!.map(([at]) => at), [40, 100]);
  const firstBytes = doc.chunks![0]![1];
  assert.ok(html.slice(0, firstBytes).includes('app.js"></script>'));
  assert.equal(doc.chunks!.reduce((s, [, b]) => s + b, 0), doc.body.length);
});

test('a legacy-layout document (interpolated chunk times): the doctype opens it, each chunk comes when the source parsed it', () => {
  const g = sample();
  for (const n of g.nodes) if (n.kind === 'download_chunk') n.extra = { interpolatedTimes: true };
  for (const [id, at] of [['p0', 90], ['p1', 130]] as const) Object.assign(g.nodes.find((n) => n.id === id)!, { start: at, end: at + 1 });
  const doc = synthesizeSite(g).responses[0]!;
  const html = doc.body.toString();
  // The lead (doctype and whitespace before the script tag) at chunk 0's interpolated end, the tag when parsed
  // (90 ms), the rest no later than the document's end (100 ms) though the parser reached it at 130.
  assert.deepEqual(doc.chunks!.map(([at]) => at), [40, 90, 100]);
  assert.ok(html.slice(0, doc.chunks![0]![1]).startsWith('<!DOCTYPE html>'));
  assert.ok(!html.slice(0, doc.chunks![0]![1]).includes('<script'));
  assert.ok(html.slice(0, doc.chunks![0]![1] + doc.chunks![1]![1]).includes('app.js"></script>'));
});

test('a script the parser did not wait for (no rule 4 to the next chunk) is async; one it waited for stays blocking', () => {
  const g = sample();
  g.edges = g.edges.filter((e) => !(e.from === 's' && e.to === 'p1'));
  assert.ok(synthesizeSite(g).responses[0]!.body.toString().includes('<script src="http://cdn.pcp.test/app.js" async></script>'));
  assert.ok(synthesizeSite(sample()).responses[0]!.body.toString().includes('<script src="http://cdn.pcp.test/app.js"></script>'));
});

test('a script whose run resumed after an event it dispatched, its later part blocking the parser, stays blocking (apple.com)', () => {
  // comp_1_0 -> readystatechange (a synchronous XHR's, dispatched inline) -> comp_1_1 -> rule 4: one run, comp_1.
  const g = sample();
  g.nodes = g.nodes.map((n) => (n.id === 's' ? { ...n, id: 'comp_1_0', part: 0, end: 90 } : n));
  g.nodes.push({ id: 'sx', kind: 'event', frame: 'main', eventName: 'readystatechange', eventTarget: 'XMLHttpRequest', start: 90, end: 91 },
    { id: 'comp_1_1', kind: 'script_eval', frame: 'main', scriptUrl: 'http://cdn.pcp.test/app.js', scriptKind: 'sync', part: 1, start: 91, end: 100 });
  g.edges = g.edges.map((e) => ({ ...e, from: e.from === 's' ? 'comp_1_0' : e.from, to: e.to === 's' ? 'comp_1_0' : e.to }))
    .filter((e) => !(e.from === 'comp_1_0' && e.to === 'p1'));
  g.edges.push({ from: 'comp_1_0', to: 'sx', rule: 25 }, { from: 'sx', to: 'comp_1_1', rule: 'split' }, { from: 'comp_1_1', to: 'p1', rule: 4 });
  const html = synthesizeSite(g).responses[0]!.body.toString();
  assert.ok(html.includes('<script src="http://cdn.pcp.test/app.js"></script>'), html.slice(0, 300));
  // Without its rule 4 edge the parser did not wait: async, as before.
  g.edges = g.edges.filter((e) => !(e.from === 'comp_1_1' && e.to === 'p1'));
  assert.ok(synthesizeSite(g).responses[0]!.body.toString().includes('<script src="http://cdn.pcp.test/app.js" async></script>'));
});

test('the script runs its recorded time, inserts the image, sets the timer that issues the XHR with its handler', () => {
  const site = synthesizeSite(sample());
  const js = site.responses.find((r) => r.url.endsWith('app.js'))!.body.toString();
  assert.match(js, /B\(20\);/);
  assert.ok(js.includes(`E("img",${JSON.stringify(HOSTILE_REQUESTED)})`));
  assert.match(js, /setTimeout\(function\(\)\{B\(5\);X\("http:\/\/api\.pcp\.test\/data\.json",\[function\(\)\{B\(3\);\}\]\);\},50\)/);
  // The window load handler is installed by the first script of the frame.
  assert.match(js, /window\.addEventListener\("load",function\(\)\{B\(4\);\}\)/);
});

test('a hostile URL is served and requested in its encoded form; a hostile event name stays a string', () => {
  const site = synthesizeSite(sample());
  assert.match(HOSTILE_REQUESTED, /a%22%3E%3Cscript%3E/);
  for (const r of site.responses) {
    const text = r.body.toString('latin1');
    assert.ok(!text.includes('<script>window.pwned'), r.url);
    assert.ok(!text.includes('<img src=x'), r.url);
    assert.ok(!text.includes('</script><script>window.pwned=2'), r.url);
  }
  const js = site.responses.find((r) => r.url.endsWith('app.js'))!.body.toString();
  const registered = /document\.addEventListener\(("(?:[^"\\]|\\.)*")/.exec(js);
  assert.equal(JSON.parse(registered![1]!), HOSTILE_EVENT);
});

test('an edge the page cannot cause is a warning, not a failure', () => {
  const site = synthesizeSite(sample());
  assert.equal(site.warnings.length, 1);
  assert.match(site.warnings[0]!, /odd \(Element\.DOMNodeInserted\) cannot be caused in the synthesized page: a mutation event, which Chromium no longer fires/);
});

test('a style sheet imports the sheets, and asks for the images and fonts, its evaluation loaded', () => {
  const g = graphOf(PAGE, [
    res('doc', PAGE, 'text/html', 500),
    { id: 'p0', kind: 'parse_chunk', docUrl: PAGE, startLine: 1, startColumn: 16, endLine: 1, endColumn: 20 },
    res('css', 'http://www.pcp.test/a.css', 'text/css', 800),
    { id: 'c', kind: 'css_eval', styleUrl: 'http://www.pcp.test/a.css' },
    res('sub', 'http://www.pcp.test/b.css', 'text/css', 100),
    res('bg', 'http://www.pcp.test/bg.jpg', 'image/jpeg', 400),
    res('font', 'http://fonts.pcp.test/f.woff', 'font/woff', 300),
  ], [['doc', 'p0', 'resource-chunk'], ['p0', 'css', 1], ['css', 'c', 18], ['c', 'sub', 2], ['c', 'bg', 2], ['c', 'font', 2]]);
  const site = synthesizeSite(g);
  const css = site.responses.find((r) => r.url.endsWith('a.css'))!.body.toString();
  assert.match(css, /^@import url\("http:\/\/www\.pcp\.test\/b\.css"\);/);
  assert.match(css, /html\{background-image:url\("http:\/\/www\.pcp\.test\/bg\.jpg"\)\}/);
  assert.match(css, /@font-face\{font-family:pcp0;src:url\("http:\/\/fonts\.pcp\.test\/f\.woff"\);unicode-range:U\+00E000\}/);
  assert.match(site.responses[0]!.body.toString(), /<link rel="stylesheet" href="http:\/\/www\.pcp\.test\/a\.css">/);
  assert.deepEqual(site.warnings, []);
});

/**
 * A page whose script lib.js sets a 10 ms timer `t_0` (1 ms) that calls a function of lib.js (`call`,
 * 3 ms; rule 16): `nodes` and `edges` say what follows.
 */
function timerCallPage(nodes: Parameters<typeof graphOf>[1], edges: Parameters<typeof graphOf>[2]) {
  return graphOf(PAGE, [
    res('doc', PAGE, 'text/html', 500),
    { id: 'p0', kind: 'parse_chunk', docUrl: PAGE, startLine: 1, startColumn: 16, endLine: 1, endColumn: 20 },
    res('js', 'http://www.pcp.test/lib.js', 'application/javascript', 900),
    { id: 's', kind: 'script_eval', scriptUrl: 'http://www.pcp.test/lib.js', scriptKind: 'sync', start: 1, end: 2 },
    { id: 't_0', kind: 'timer', timerId: '1', timerDelay: 10, part: 0, start: 20, end: 21 },
    { id: 'call', kind: 'script_eval', scriptUrl: 'http://www.pcp.test/lib.js', scriptKind: 'sync', start: 21, end: 24 },
    ...nodes,
  ], [['doc', 'p0', 'resource-chunk'], ['p0', 'js', 1], ['js', 's', 10], ['s', 't_0', 19], ['t_0', 'call', 16], ...edges]);
}

test('a function of a script that a timer calls (rule 16) runs inside the timer', () => {
  const g = timerCallPage([res('img', 'http://www.pcp.test/late.png', 'image/png', 100)], [['call', 'img', 2]]);
  const site = synthesizeSite(g);
  const js = site.responses.find((r) => r.url.endsWith('lib.js'))!.body.toString();
  assert.match(js, /setTimeout\(function\(\)\{B\(1\);\(function\(\)\{B\(3\);E\("img","http:\/\/www\.pcp\.test\/late\.png"\);\}\)\(\);\},10\)/);
  assert.deepEqual(site.warnings, []);
});

test("a timer's next part after a call it made (legacy: comp_N_0 -> call -> comp_N_1) runs after the call, inside the timer", () => {
  const g = timerCallPage([
    { id: 't_1', kind: 'timer', timerId: '1', timerDelay: 10, part: 1, start: 24, end: 26 },
    res('img', 'http://www.pcp.test/after-call.png', 'image/png', 100),
  ], [['call', 't_1', 'split'], ['t_1', 'img', 2]]);
  const ix = indexGraph(g);
  assert.equal(callerOf(ix, ix.byId.get('t_1')!), 't_0');
  const site = synthesizeSite(g);
  const js = site.responses.find((r) => r.url.endsWith('lib.js'))!.body.toString();
  // The timer's 1 ms, the call's 3 ms, then the timer's own 2 ms and its image: once, and nowhere else.
  assert.match(js, /setTimeout\(function\(\)\{B\(1\);\(function\(\)\{B\(3\);\}\)\(\);\(function\(\)\{B\(2\);E\("img","http:\/\/www\.pcp\.test\/after-call\.png"\);\}\)\(\);\},10\)/);
  assert.equal(js.split('after-call.png').length, 2);
  assert.deepEqual(site.warnings, []);
});

test("a resource whose element fired error is served failing, with the handler on its element", () => {
  const graph = failedElementsPage(PAGE);
  const site = synthesizeSite(graph);
  const by = new Map(site.responses.map((r) => [r.url, r]));
  assert.equal(by.get('http://cdn.pcp.test/gone')!.status, 404);
  assert.equal(by.get('http://cdn.pcp.test/gone')!.body.length, 400);
  assert.equal(by.get('http://cdn.pcp.test/gone.png')!.status, 404);
  assert.notEqual(by.get('http://cdn.pcp.test/gone.png')!.body.toString('latin1', 1, 4), 'PNG'); // undecodable
  const html = by.get(PAGE)!.body.toString();
  assert.match(html, /<img src="http:\/\/cdn\.pcp\.test\/gone" alt="" onerror="[^"]*http:\/\/cdn\.pcp\.test\/app\.js/);
  assert.match(by.get('http://cdn.pcp.test/app.js')!.body.toString(), /E\("img","http:\/\/cdn\.pcp\.test\/gone\.png",null,function\(\)\{B\(1\);E\("img","http:\/\/cdn\.pcp\.test\/after\.gif"\);\}\)/);
  assert.deepEqual(site.warnings.filter((w) => /error/.test(w)), []);
});

test('a resource the graph evaluates as a script (JSONP as text/plain) is requested by a script tag and runs its program', () => {
  const jsonp = 'http://api.pcp.test/list?callback=cb';
  const graph = scriptPage(PAGE, jsonp, 'text/plain', [res('img', 'http://cdn.pcp.test/a.jpg', 'image/jpeg', 500)], [['s', 'img', 2]]);
  const by = new Map(synthesizeSite(graph).responses.map((r) => [r.url, r]));
  assert.match(by.get(PAGE)!.body.toString(), /<script src="http:\/\/api\.pcp\.test\/list\?callback=cb"><\/script>/);
  const body = by.get('http://api.pcp.test/list?callback=cb')!;
  assert.equal(body.mimeType, 'text/plain');
  assert.equal(body.body.length, 2000);
  assert.match(body.body.toString(), /E\("img","http:\/\/cdn\.pcp\.test\/a\.jpg"\)/);
});

test("legacy shapes: a timer's and an event's parts (rules 21, 25 between parts) are one computation; an XHR's handler chain of any MIME type", () => {
  // Imported from the original layout: parts comp_N_k linked by the rule their kinds imply, the
  // readystatechange events of one XHR each the child of the one before, no request type.
  const g = scriptPage(PAGE, 'http://www.pcp.test/lib.js', 'application/javascript', [
    { id: 'comp_7_0', kind: 'timer', timerId: '1', timerDelay: 10, start: 20, end: 21, part: 0 },
    res('page', 'http://www.pcp.test/more.html', 'text/html', 100, { start: 21, end: 30 }),
    { id: 'comp_7_1', kind: 'timer', timerId: '1', timerDelay: 10, start: 21, end: 23, part: 1 },
    { id: 'comp_8', kind: 'event', eventName: 'readystatechange', eventTarget: 'XMLHTTPRequest', start: 30, end: 31 },
    { id: 'comp_9_0', kind: 'event', eventName: 'readystatechange', eventTarget: 'XMLHTTPRequest', start: 31, end: 32, part: 0 },
    res('img', 'http://www.pcp.test/a.png', 'image/png', 100, { start: 32, end: 40 }),
    { id: 'comp_9_1', kind: 'event', eventName: 'readystatechange', eventTarget: 'XMLHTTPRequest', start: 32, end: 35, part: 1 },
  ], [['s', 'comp_7_0', 19], ['comp_7_0', 'page', 2], ['comp_7_0', 'comp_7_1', 21], ['page', 'comp_8', 25], ['comp_8', 'comp_9_0', 25], ['comp_9_0', 'img', 2], ['comp_9_0', 'comp_9_1', 25]]);
  const js = synthesizeSite(g).responses.find((r) => r.url.endsWith('lib.js'))!.body.toString();
  // One timer running both parts; the HTML is fetched by an XHR whose second state change runs both parts of its handler.
  assert.equal(js.match(/setTimeout/g)?.length, 1);
  assert.ok(js.includes('setTimeout(function(){B(1);X("http://www.pcp.test/more.html",[function(){B(1);},function(){B(1);E("img","http://www.pcp.test/a.png");B(3);}]);B(2);},10)'), js);
});

test("an XHR's recorded load event is its load handler, not one more readystatechange handler", () => {
  const g = scriptPage(PAGE, 'http://www.pcp.test/lib.js', 'application/javascript', [
    res('json', 'http://www.pcp.test/data.json', 'application/json', 100, { start: 20, end: 30 }),
    { id: 'comp_8', kind: 'event', eventName: 'readystatechange', eventTarget: 'XMLHTTPRequest', start: 25, end: 26 },
    { id: 'comp_9', kind: 'event', eventName: 'readystatechange', eventTarget: 'XMLHTTPRequest', start: 30, end: 31 },
    { id: 'comp_10', kind: 'event', eventName: 'load', eventTarget: 'XMLHTTPRequest', start: 31, end: 33 },
    res('img', 'http://www.pcp.test/a.png', 'image/png', 100, { start: 32, end: 40 }),
  ], [['s', 'json', 2], ['json', 'comp_8', 25], ['comp_8', 'comp_9', 25], ['comp_9', 'comp_10', 25], ['comp_10', 'img', 2]]);
  const js = synthesizeSite(g).responses.find((r) => r.url.endsWith('lib.js'))!.body.toString();
  // Two readystatechange handlers, then the load handler (which requests the image) as the third argument.
  assert.match(js, /X\("http:\/\/www\.pcp\.test\/data\.json",\[function\(\)\{B\(1\);\},function\(\)\{B\(1\);\}\],\[function\(\)\{[^\]]*E\("img","http:\/\/www\.pcp\.test\/a\.png"\)[^\]]*\}\]\);/);
});

test("a long XHR chain: its body comes in one piece per LOADING dispatch, and handlers after a handler's last part are the XHR's", () => {
  // HEADERS_RECEIVED, three LOADING, DONE (comp_5, two parts), then comp_6: the child of DONE's last part.
  const ev = (id: string, start: number, end = start, part?: number) => ({ id, kind: 'event', eventName: 'readystatechange', eventTarget: 'XMLHTTPRequest', start, end, ...(part === undefined ? {} : { part }) }) as const;
  const g = scriptPage(PAGE, 'http://www.pcp.test/lib.js', 'application/javascript', [
    res('x', 'http://api.pcp.test/feed.json', 'application/json', 3000, { start: 10, end: 110 }),
    ev('comp_1', 100), ev('comp_2', 104), ev('comp_3', 105), ev('comp_4', 110), ev('comp_5_0', 111, 113, 0), ev('comp_5_1', 113, 114, 1), ev('comp_6', 114, 116),
    res('a', 'http://www.pcp.test/a.png', 'image/png', 100, { start: 113, end: 120 }),
    res('b', 'http://www.pcp.test/b.png', 'image/png', 100, { start: 116, end: 120 }),
  ], [['s', 'x', 2], ['x', 'comp_1', 25], ['comp_1', 'comp_2', 25], ['comp_2', 'comp_3', 25], ['comp_3', 'comp_4', 25], ['comp_4', 'comp_5_0', 25],
    ['comp_5_0', 'a', 2], ['comp_5_0', 'comp_5_1', 25], ['comp_5_1', 'comp_6', 25], ['comp_6', 'b', 2]]);
  const site = synthesizeSite(g);
  const js = site.responses.find((r) => r.url.endsWith('lib.js'))!.body.toString();
  const handlers = /X\("http:\/\/api\.pcp\.test\/feed\.json",\[(.*?)\]\);/.exec(js)?.[1] ?? '';
  assert.equal(handlers.match(/function\(\)\{/g)?.length, 6, js);
  assert.ok(handlers.endsWith('function(){B(2);E("img","http://www.pcp.test/b.png");}'), handlers);
  // Six handlers: HEADERS_RECEIVED, four LOADING pieces (comp_2 .. comp_5, at least 16 ms apart), DONE (comp_6); the transfer lasted 100 ms.
  const chunks = site.responses.find((r) => r.url === 'http://api.pcp.test/feed.json')!.chunks!;
  assert.deepEqual(chunks.map(([t]) => t), [0, 52, 68, 84, 100]);
  assert.equal(chunks.reduce((n, [, b]) => n + b, 0), 3000);
});

test("a frame of the page's own URL is left out with a warning: the site has one body per URL, and it would load the whole page again", () => {
  const g = scriptPage(PAGE, 'http://www.pcp.test/lib.js', 'application/javascript', [
    res('self', PAGE, 'text/html', 300, { frame: 'f1', start: 20, end: 30 }),
    res('img', 'http://www.pcp.test/a.png', 'image/png', 100, { start: 20, end: 30 }),
  ], [['s', 'self', 2], ['s', 'img', 2]]);
  const site = synthesizeSite(g);
  const js = site.responses.find((r) => r.url.endsWith('lib.js'))!.body.toString();
  assert.ok(!js.includes(`E("iframe","${PAGE}")`) && js.includes('E("img","http://www.pcp.test/a.png")'), js);
  assert.equal(site.warnings.filter((w) => /page's own URL/.test(w)).length, 1, site.warnings.join('\n'));
});

test("a synchronous XHR's readystatechange inside a handler (legacy: comp_N_0 -> readystatechange -> comp_N_1): its work, then the handler's rest, run inline", () => {
  const g = scriptPage(PAGE, 'http://www.pcp.test/lib.js', 'application/javascript', [
    { id: 'comp_61_0', kind: 'timer', timerId: '1', timerDelay: 5, start: 20, end: 22, part: 0 },
    { id: 'comp_62', kind: 'event', eventName: 'readystatechange', eventTarget: 'XMLHTTPRequest', start: 22, end: 23 },
    { id: 'comp_61_1', kind: 'timer', timerId: '1', timerDelay: 5, start: 23, end: 26, part: 1 },
    res('img', 'http://www.pcp.test/after.png', 'image/png', 100, { start: 26, end: 30 }),
  ], [['s', 'comp_61_0', 19], ['comp_61_0', 'comp_62', 25], ['comp_62', 'comp_61_1', 25], ['comp_61_1', 'img', 2]]);
  const site = synthesizeSite(g);
  const js = site.responses.find((r) => r.url.endsWith('lib.js'))!.body.toString();
  assert.ok(js.includes('setTimeout(function(){B(2);(function(){B(1);})();(function(){B(3);E("img","http://www.pcp.test/after.png");})();},5)'), js);
  assert.equal(js.match(/setTimeout/g)?.length, 1, js);
  assert.deepEqual(site.warnings, []);
  // A handler's rest (an event of its own in the legacy graph) is not also installed as a second listener.
  const h = scriptPage(PAGE, 'http://www.pcp.test/lib.js', 'application/javascript', [
    { id: 'comp_25_0', kind: 'event', eventName: 'DOMContentLoaded', eventTarget: 'Document', start: 20, end: 22, part: 0 },
    { id: 'comp_26', kind: 'event', eventName: 'readystatechange', eventTarget: 'XMLHTTPRequest', start: 22, end: 22 },
    { id: 'comp_25_1', kind: 'event', eventName: 'DOMContentLoaded', eventTarget: 'Document', start: 22, end: 25, part: 1 },
    res('img', 'http://www.pcp.test/after.png', 'image/png', 100, { start: 25, end: 30 }),
  ], [['comp_25_0', 'comp_26', 25], ['comp_26', 'comp_25_1', 25], ['comp_25_1', 'img', 2]]);
  const hjs = synthesizeSite(h).responses.find((r) => r.url.endsWith('lib.js'))!.body.toString();
  assert.equal(hjs.match(/addEventListener\("DOMContentLoaded"/g)?.length, 1, hjs);
  assert.equal(hjs.match(/after\.png/g)?.length, 1, hjs);
});

test('a request that waited for one of the six connections to its http host is held its span less the wait', () => {
  const imgs = [0, 1, 2, 3, 4, 5, 6].map((i) => res(`i${i}`, `http://img.pcp.test/${i}.png`, 'image/png', 100, { start: 10, end: 110 + i }));
  const g = graphOf(PAGE, [
    res('doc', PAGE, 'text/html', 500, { end: 5 }),
    { id: 'p0', kind: 'parse_chunk', docUrl: PAGE, startLine: 1, startColumn: 16, endLine: 1, endColumn: 20, start: 6, end: 7 },
    ...imgs,
  ], [['doc', 'p0', 'resource-chunk'], ...imgs.map((r): [string, string, number] => ['p0', r.id, 1])]);
  const by = new Map(synthesizeSite(g).responses.map((r) => [r.url, r]));
  assert.deepEqual(by.get('http://img.pcp.test/0.png')!.chunks, [[0, 0], [100, 100]]);
  // The seventh is sent when the first connection frees up (110): its body goes 6 ms after, at its recorded end.
  assert.deepEqual(by.get('http://img.pcp.test/6.png')!.chunks, [[0, 0], [6, 100]]);
});

test('an image the 2016 scheduler held behind the head\'s scripts is served its span less the hold (scheduler-holds.ts)', () => {
  const g = graphOf(PAGE, [
    res('doc', PAGE, 'text/html', 500, { end: 5 }),
    { id: 'p0', kind: 'parse_chunk', docUrl: PAGE, startLine: 1, startColumn: 16, endLine: 1, endColumn: 20, start: 6, end: 7 },
    res('s1', 'http://js.pcp.test/a.js', 'application/javascript', 100, { start: 10, end: 500 }),
    res('s2', 'http://js.pcp.test/b.js', 'application/javascript', 100, { start: 10, end: 700 }),
    { id: 'p1', kind: 'parse_chunk', docUrl: PAGE, startLine: 1, startColumn: 20, endLine: 1, endColumn: 40, start: 20, end: 21 },
    res('img', 'http://img.pcp.test/held.png', 'image/png', 100, { start: 30, end: 560 }),
  ], [['doc', 'p0', 'resource-chunk'], ['p0', 's1', 1], ['p0', 's2', 1], ['p0', 'p1', 3], ['p1', 'img', 1]]);
  // <body> in p1 (begun at 20): s1 and s2, asked before it, are in flight at 30 (two non-delayable requests): held
  // until one ends (500), then s2 alone: released at 500, 470 ms of the 530 ms span. Its body goes 60 ms after.
  const held = synthesizeSite(g, { bodyStarts: new Map([[PAGE, { line: 1, column: 25 }]]) }).responses.find((r) => r.url.endsWith('held.png'))!;
  assert.deepEqual(held.chunks, [[0, 0], [60, 100]]);
  // An image that ended at 400, before that release, was evidently not held: its whole span.
  const short = { ...g, nodes: g.nodes.map((n) => (n.id === 'img' ? { ...n, end: 400 } : n)) };
  assert.deepEqual(synthesizeSite(short, { bodyStarts: new Map([[PAGE, { line: 1, column: 25 }]]) }).responses.find((r) => r.url.endsWith('held.png'))!.chunks, [[0, 0], [370, 100]]);
});

test("a script's element.focus(): the handler runs inside F, and the script's next part (legacy: focus -> comp_N_k+1) after it", () => {
  const g = graphOf(PAGE, [
    res('doc', PAGE, 'text/html', 500),
    { id: 'p0', kind: 'parse_chunk', docUrl: PAGE, startLine: 1, startColumn: 16, endLine: 1, endColumn: 20 },
    res('js', 'http://www.pcp.test/lib.js', 'application/javascript', 900),
    { id: 'comp_8_0', kind: 'script_eval', scriptUrl: 'http://www.pcp.test/lib.js', scriptKind: 'sync', start: 1, end: 2, part: 0 },
    { id: 'comp_9', kind: 'event', eventName: 'focus', eventTarget: 'Element', start: 2, end: 3 },
    res('a', 'http://www.pcp.test/in-handler.png', 'image/png', 100),
    { id: 'comp_8_1', kind: 'script_eval', scriptUrl: 'http://www.pcp.test/lib.js', scriptKind: 'sync', start: 3, end: 5, part: 1 },
    res('b', 'http://www.pcp.test/after.png', 'image/png', 100),
  ], [['doc', 'p0', 'resource-chunk'], ['p0', 'js', 1], ['js', 'comp_8_0', 10], ['comp_8_0', 'comp_9', 25], ['comp_9', 'a', 2], ['comp_9', 'comp_8_1', 15], ['comp_8_1', 'b', 2]]);
  const site = synthesizeSite(g);
  const js = site.responses.find((r) => r.url.endsWith('lib.js'))!.body.toString();
  assert.ok(js.includes('B(1);F("focus","element",function(){B(1);E("img","http://www.pcp.test/in-handler.png");});(function(){B(2);E("img","http://www.pcp.test/after.png");})();'), js);
  assert.deepEqual(site.warnings, []);
  // A timer whose part 0 focused the window: its part 1 runs after the handler, not as a new timer.
  const t = scriptPage(PAGE, 'http://www.pcp.test/lib.js', 'application/javascript', [
    { id: 'comp_33_0', kind: 'timer', timerId: '1', timerDelay: 10, start: 20, end: 21, part: 0 },
    { id: 'comp_34', kind: 'event', eventName: 'focus', eventTarget: 'Window', start: 21, end: 21 },
    { id: 'comp_33_1', kind: 'timer', timerId: '1', timerDelay: 10, start: 21, end: 24, part: 1 },
  ], [['s', 'comp_33_0', 19], ['comp_33_0', 'comp_34', 25], ['comp_34', 'comp_33_1', 20]]);
  const tjs = synthesizeSite(t).responses.find((r) => r.url.endsWith('lib.js'))!.body.toString();
  assert.equal(tjs.match(/setTimeout/g)?.length, 1, tjs);
  assert.ok(tjs.includes('setTimeout(function(){B(1);F("focus","window",function(){});(function(){B(3);})();},10)'), tjs);
});

test('a timer trimmed by normalisation (over 1 s) is set with the delay the page passed', () => {
  const g = sample();
  const t = g.nodes.find((n) => n.id === 't')!;
  Object.assign(t, { timerDelay: 1000, extra: { originalDelay: 1500 } });
  const js = synthesizeSite(g).responses.find((r) => r.url.endsWith('app.js'))!.body.toString();
  assert.match(js, /\},1500\)/);
});

test("each sheet's html::before asks for every font of the page, each family on a character of its own", () => {
  const g = graphOf(PAGE, [
    res('doc', PAGE, 'text/html', 500),
    { id: 'p0', kind: 'parse_chunk', docUrl: PAGE, startLine: 1, startColumn: 16, endLine: 1, endColumn: 20 },
    res('a', 'http://www.pcp.test/a.css', 'text/css', 800), { id: 'ca', kind: 'css_eval', styleUrl: 'http://www.pcp.test/a.css' },
    res('b', 'http://www.pcp.test/b.css', 'text/css', 800), { id: 'cb', kind: 'css_eval', styleUrl: 'http://www.pcp.test/b.css' },
    res('data', 'data:application/font-woff;base64,AAAA', 'application/font-woff', 3),
    res('f1', 'http://fonts.pcp.test/1.woff', 'font/woff', 300),
    res('f2', 'http://fonts.pcp.test/2.woff', 'font/woff', 300),
  ], [['doc', 'p0', 'resource-chunk'], ['p0', 'a', 1], ['p0', 'b', 1], ['a', 'ca', 18], ['b', 'cb', 18], ['ca', 'data', 2], ['ca', 'f1', 2], ['cb', 'f2', 2]]);
  const css = (u: string) => synthesizeSite(g).responses.find((r) => r.url.endsWith(u))!.body.toString();
  assert.match(css('a.css'), /@font-face\{font-family:pcp0;src:url\("http:\/\/fonts\.pcp\.test\/1\.woff"\);unicode-range:U\+00E000\}/);
  assert.match(css('a.css'), /@font-face\{font-family:pcp2;src:url\("data:[^)]*\);unicode-range:U\+00E002\}/);
  assert.match(css('b.css'), /@font-face\{font-family:pcp1;src:url\("http:\/\/fonts\.pcp\.test\/2\.woff"\);unicode-range:U\+00E001\}/);
  // Every character in the text, so that layout asks for every family at once, not one after another's failure.
  for (const u of ['a.css', 'b.css']) assert.match(css(u), /html::before\{content:"\\00E000\\00E001\\00E002";font-family:pcp0,pcp1,pcp2\}/);
});

test("a parser's frame of the page's own URL (a fragment aside) is left out too, with a warning", () => {
  const g = scriptPage(PAGE, 'http://www.pcp.test/lib.js', 'application/javascript', [
    { id: 'p1', kind: 'parse_chunk', docUrl: PAGE, startLine: 3, startColumn: 1, endLine: 4, endColumn: 1 },
    res('self', `${PAGE}#1`, 'text/html', 300, { frame: 'f1', start: 20, end: 30 }),
    res('img', 'http://www.pcp.test/a.png', 'image/png', 100, { start: 20, end: 30 }),
  ], [['p0', 'p1', 3], ['p1', 'self', 1], ['p1', 'img', 1]]);
  const site = synthesizeSite(g);
  const html = site.responses.find((r) => r.url === PAGE)!.body.toString();
  assert.ok(!html.includes('<iframe') && html.includes('<img src="http://www.pcp.test/a.png"'), html);
  assert.equal(site.warnings.filter((w) => /page's own URL/.test(w)).length, 1, site.warnings.join('\n'));
});

test('a resource the source took from its HTTP cache (cached, no network fetch of its URL) is served marked fromCache; a memory-cache repeat is not', () => {
  const g = graphOf(PAGE, [
    res('doc', PAGE, 'text/html', 300),
    res('hit', 'http://img.pcp.test/hit.png', 'image/png', 0, { cached: true, start: 5, end: 5 }),
    res('net', 'http://img.pcp.test/net.png', 'image/png', 100, { start: 5, end: 9 }),
    res('again', 'http://img.pcp.test/net.png', 'image/png', 0, { cached: true, start: 12, end: 12 }),
  ], []);
  const site = synthesizeSite(g);
  const by = new Map(site.responses.map((r) => [r.url, r]));
  assert.equal(by.get('http://img.pcp.test/hit.png')?.fromCache, true);
  assert.equal(by.get('http://img.pcp.test/net.png')?.fromCache, undefined);
  assert.equal(by.get(PAGE)?.fromCache, undefined);
});

test("a URL an <img> fails on and a <script> then runs (www.bild.de's ad) is served as the script: the image fails by decoding, the script loads", () => {
  const AD = 'http://ads.pcp.test/ad.js';
  const graph = graphOf(PAGE, [
    res('doc', PAGE, 'text/html', 3000),
    { id: 'p0', kind: 'parse_chunk', docUrl: PAGE, startLine: 1, startColumn: 16, endLine: 2, endColumn: 1 },
    res('as_img', AD, 'application/x-javascript', 4000, { status: 0, requestType: 'Image', start: 5, end: 8 }),
    { id: 'err', kind: 'event', eventName: 'error', eventTarget: 'Element', start: 9, end: 10 },
    res('as_script', AD, 'application/x-javascript', 4000, { status: 0, requestType: 'Script', start: 11, end: 12 }),
    { id: 's', kind: 'script_eval', scriptUrl: AD, scriptKind: 'sync', start: 13, end: 14 },
    { id: 'ld', kind: 'event', eventName: 'load', eventTarget: 'Element', start: 15, end: 16 },
    res('img', 'http://ads.pcp.test/after.gif', 'image/gif', 300, { start: 17, end: 18 }),
  ], [['doc', 'p0', 'resource-chunk'], ['p0', 'as_img', 1], ['as_img', 'err', 25], ['err', 'as_script', 2], ['as_script', 's', 10], ['as_script', 'ld', 25], ['ld', 'img', 2]]);
  const site = synthesizeSite(graph);
  const ad = site.responses.filter((r) => r.url === AD);
  assert.equal(ad.length, 1);
  assert.equal(ad[0]!.status, 200);
  assert.match(ad[0]!.body.toString(), /__pcpRuns/); // the script's program, no image
  const html = site.responses.find((r) => r.url === PAGE)!.body.toString();
  assert.match(html, /<img src="http:\/\/ads\.pcp\.test\/ad\.js" alt="" onerror="[^"]*E\(&quot;script&quot;,&quot;http:\/\/ads\.pcp\.test\/ad\.js&quot;,function\(\)\{B\(1\);E\(&quot;img&quot;,&quot;http:\/\/ads\.pcp\.test\/after\.gif&quot;\);\}\)/);
});

test("a script the page requests over http and a frame over https: each body holds both's programs (the browser upgrades the http request to an HSTS host: www.ndtv.com's analytics.js)", () => {
  const GA = 'www.google-analytics.com/analytics.js';
  const graph = scriptPage(PAGE, `http://${GA}`, 'text/javascript', [
    res('ad_doc', 'http://ads.pcp.test/frame.html', 'text/html', 500, { frame: 'ad', start: 10, end: 11 }),
    res('ad_js', `https://${GA}`, 'text/javascript', 2000, { frame: 'ad', start: 12, end: 13 }),
    { id: 'ad_s', kind: 'script_eval', frame: 'ad', scriptUrl: `https://${GA}`, scriptKind: 'async', start: 14, end: 15 },
    res('page_hit', 'http://www.google-analytics.com/collect?page', 'image/gif', 40, { start: 9, end: 10 }),
    res('ad_hit', 'https://www.google-analytics.com/collect?ad', 'image/gif', 40, { frame: 'ad', start: 15, end: 16 }),
  ], [['s', 'page_hit', 2], ['ad_js', 'ad_s', 10], ['ad_s', 'ad_hit', 2]]);
  graph.frames.push({ id: 'ad', url: 'http://ads.pcp.test/frame.html', parent: 'main' });
  const site = synthesizeSite(graph);
  for (const scheme of ['http', 'https']) {
    const body = site.responses.find((r) => r.url === `${scheme}://${GA}`)!.body.toString();
    assert.match(body, /"http:\/\/www\.pcp\.test\/\|1":function\(\)\{[^}]*collect\?page/, scheme);
    assert.match(body, /"http:\/\/ads\.pcp\.test\/frame\.html\|1":function\(\)\{[^}]*collect\?ad/, scheme);
  }
});

test("a script the preload scanner fetched and the parser ran from the memory cache before its drawn end is served over its recorded fetch's duration", () => {
  // steamcommunity.com's global.js: fetched 296-5,130 ms, run at 5,241; the 2016 builder drew it from the
  // parser's access, 5,240-10,073 (4,833 ms). The replay's preload scanner asks for it where 2016's did, so
  // served over those 4,833 ms it ends about when the source had it; the rebuilt node lasts what the source's does.
  const LIB = 'http://cdn.pcp.test/global.js';
  const g = graphOf(PAGE, [
    res('doc', PAGE, 'text/html', 3000, { start: 0, end: 50 }),
    { id: 'p0', kind: 'parse_chunk', docUrl: PAGE, startLine: 1, startColumn: 16, endLine: 2, endColumn: 1, start: 5230, end: 5240 },
    res('lib', LIB, 'text/javascript', 83597, { start: 5240, end: 10073, serverDelay: 40 }),
    { id: 's', kind: 'script_eval', scriptUrl: LIB, scriptKind: 'sync', start: 5241, end: 5245 },
  ], [['doc', 'p0', 'resource-chunk'], ['p0', 'lib', 1], ['lib', 's', 10]]);
  const r = synthesizeSite(g).responses.find((x) => x.url === LIB)!;
  assert.equal(r.delayMs, 40);
  assert.deepEqual(r.chunks!.at(-1), [4793, r.body.length]); // 10,073 - 5,240 - 40 of transfer after the server's 40
  // Its span holds the 2016 browser's waits: it ends by its fetch (5,241 - 4,833 = 408) plus the span on the page's
  // clock, 5,241, however late the replay's request reaches the site (HAR `_endBy`).
  assert.equal(r.endByMs, 5241);
  assert.equal(synthesizeSite(g).responses.find((x) => x.url === PAGE)!.endByMs, undefined, 'the document ran nothing early');
});

test('such a script queues for its http host where it was fetched (its span ending when it ran), not at the drawn access', () => {
  // www.adexc.net: six sheets hold the host's six connections 100-2,300 ms; the script, drawn 3,000-5,200
  // from the parser's access and run at 3,000, was fetched 800-3,000: it waited 1,500 ms for a connection
  // (to 2,300), so the site holds it 2,200 - 1,500 = 700 ms. Queued at 3,000 it would find one free and be held 2,200.
  const CDN = 'http://cdn.pcp.test/';
  const sheets = [1, 2, 3, 4, 5, 6].map((k) => res(`c${k}`, `${CDN}s${k}.css`, 'text/css', 500, { start: 100, end: 2300 }));
  const g = graphOf(PAGE, [
    res('doc', PAGE, 'text/html', 3000, { start: 0, end: 50 }),
    { id: 'p0', kind: 'parse_chunk', docUrl: PAGE, startLine: 1, startColumn: 16, endLine: 2, endColumn: 1, start: 60, end: 100 },
    ...sheets,
    { id: 'p1', kind: 'parse_chunk', docUrl: PAGE, startLine: 2, startColumn: 1, endLine: 3, endColumn: 1, start: 2990, end: 3000 },
    res('lib', `${CDN}lib.js`, 'text/javascript', 5000, { start: 3000, end: 5200 }),
    { id: 's', kind: 'script_eval', scriptUrl: `${CDN}lib.js`, scriptKind: 'sync', start: 3000, end: 3004 },
  ], [['doc', 'p0', 'resource-chunk'], ...sheets.map((c): [string, string, number] => ['p0', c.id, 1]), ['p0', 'p1', 3], ['p1', 'lib', 1], ['lib', 's', 10]]);
  const r = synthesizeSite(g).responses.find((x) => x.url === `${CDN}lib.js`)!;
  assert.equal(r.delayMs, 0);
  assert.deepEqual(r.chunks!.at(-1), [700, r.body.length]);
});

test("an image the source's renderer held before sending (extra.preloadHold) is served its drawn span, to end by the scanner's ask plus it, never sooner than its network span", () => {
  // www.capitalone.com's option-1-btn.png: drawn 5,244-8,103 from the scanner's ask (2,531) to its end (5,390),
  // sent at 5,205 (185 ms on the network). The document's bytes came at 2,500 (the replay's scanner asks then):
  // the replay's browser holds the request itself, so it ends by min(2,531, 2,500) + 2,859 = 5,359 on the page's
  // clock, however late the request reaches the site, and no sooner than 185 ms after it (HAR `_endBy`, `_endByLeast`).
  const IMG = 'https://www.pcp.test/option-1-btn.png';
  const g = graphOf(PAGE, [
    res('doc', PAGE, 'text/html', 3000, { start: 0, end: 2500 }),
    { id: 'd0', kind: 'download_chunk', resource: 'doc', index: 0, offset: 0, size: 3000, start: 2500, end: 2500, extra: { chunkTimes: 'received' } },
    { id: 'p0', kind: 'parse_chunk', docUrl: PAGE, startLine: 1, startColumn: 16, endLine: 2, endColumn: 1, start: 5240, end: 5244 },
    res('img', IMG, 'image/png', 3617, { start: 5244, end: 8103, extra: { preloadHold: { askedAt: 2531, sentAt: 5205, receivedAt: 5390 } } }),
    res('other', 'https://www.pcp.test/b.png', 'image/png', 300, { start: 5244, end: 8103 }),
  ], [['doc', 'd0', 'resource-chunk'], ['d0', 'p0', 3], ['p0', 'img', 1], ['p0', 'other', 1]]);
  const by = new Map(synthesizeSite(g).responses.map((r) => [r.url, r]));
  const img = by.get(IMG)!;
  assert.deepEqual(img.chunks!.at(-1), [2859, img.body.length], 'the drawn span, which the replay shortens');
  assert.equal(img.endByMs, 5359);
  assert.equal(img.endByLeastMs, 185);
  const other = by.get('https://www.pcp.test/b.png')!;
  assert.deepEqual(other.chunks!.at(-1), [2859, 300]);
  assert.equal(img.delayMs, other.delayMs, 'queued as drawn, as a download without a hold');
  assert.deepEqual([other.endByMs, other.endByLeastMs], [undefined, undefined], 'without a hold: no pace');
});
