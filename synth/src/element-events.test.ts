import { test } from 'node:test';
import assert from 'node:assert/strict';
import { synthesizeSite } from './site.ts';
import { indexGraph } from './graph-index.ts';
import { causeOf } from './element-events.ts';
import { eventsPage, graphOf, res, scriptPage } from './testing.ts';

const PAGE = 'http://events.pcp.test/';
const scriptOf = (g: ReturnType<typeof eventsPage>): string => synthesizeSite(g).responses.find((r) => r.url.endsWith('app.js'))!.body.toString();

test('a custom event begun as a script part ended is that script\'s dispatch, at the end of the part', () => {
  const g = eventsPage(PAGE);
  const js = scriptOf(g);
  assert.match(js, /V\("dispatch","pcp-custom",function\(\)\{B\(1\);E\("img","http:\/\/cdn\.pcp\.test\/by-custom\.gif"\);\}\);/);
  const ix = indexGraph(g);
  assert.deepEqual(causeOf(ix, ix.byId.get('cu') as never, () => undefined), { event: ix.byId.get('cu'), kind: 'dispatch', by: 's', delayMs: 0, target: 'element', viaParent: true });
});

test('a scroll the source hangs off a script is asked for at the end of that script; the browser fires it', () => {
  const js = scriptOf(eventsPage(PAGE));
  assert.match(js, /V\("scroll","scroll",function\(\)\{B\(1\);E\("img","http:\/\/cdn\.pcp\.test\/by-scroll\.gif"\);\}\);/);
});

test('a transition, animation or play event hung off its element\'s tag: a timer of the frame\'s first script, due at the recorded time', () => {
  const js = scriptOf(eventsPage(PAGE));
  // The script's part ends at 9 ms; the events were dispatched at 60, 70 and 280 ms (an animation's first iteration lasts 100 ms).
  assert.match(js, /setTimeout\(function\(\)\{V\("transition","webkitTransitionEnd",function\(\)\{B\(1\);E\("img","http:\/\/cdn\.pcp\.test\/by-transition\.gif"\);\}\)\},51\);/);
  assert.match(js, /setTimeout\(function\(\)\{V\("play","play",.*\},61\);/);
  assert.match(js, /setTimeout\(function\(\)\{V\("animation","webkitAnimationIteration",.*\},171\);/);
  assert.deepEqual(synthesizeSite(eventsPage(PAGE)).warnings, []);
});

test('a window event of the page\'s own name dispatched by a script is dispatched at the window, not only listened for', () => {
  const g = scriptPage(PAGE, 'http://cdn.pcp.test/app.js', 'application/javascript', [
    { id: 'w', kind: 'event', eventName: 'request.adzerk', eventTarget: 'Window', start: 9, end: 10 },
    { id: 'l', kind: 'event', eventName: 'load', eventTarget: 'Window', start: 9, end: 10 },
  ], [['s', 'w', 25], ['s', 'l', 25]]);
  const js = synthesizeSite(g).responses.find((r) => r.url.endsWith('app.js'))!.body.toString();
  assert.match(js, /V\("dispatch","request\.adzerk",function\(\)\{B\(1\);\},window\);/);
  assert.doesNotMatch(js, /addEventListener\("request\.adzerk"/);
  // The window's load began as the script ended too, but only the browser fires it: listened for.
  assert.match(js, /window\.addEventListener\("load",/);
});

test('a hostile event name stays a JavaScript string', () => {
  const evil = 'x");window.pwned=1;("';
  const g = eventsPage(PAGE);
  (g.nodes.find((n) => n.id === 'cu') as { eventName: string }).eventName = evil;
  const js = scriptOf(g);
  assert.ok(js.includes(`V("dispatch",${JSON.stringify(evil)},`));
  assert.ok(!js.includes('x");window.pwned'));
  assert.doesNotThrow(() => new Function(js), 'the script still parses');
});

test('a script resumes after an event it dispatched, and after a mutation event the page cannot cause (the legacy part -> event -> next part)', () => {
  for (const [name, target] of [['resize', 'Window'], ['DOMNodeInserted', 'Element']]) {
    const g = graphOf(PAGE, [
      res('doc', PAGE, 'text/html', 3000),
      { id: 'p0', kind: 'parse_chunk', docUrl: PAGE, startLine: 1, startColumn: 16, endLine: 2, endColumn: 1 },
      res('js', 'http://cdn.pcp.test/app.js', 'application/javascript', 2000),
      { id: 'comp_1_0', kind: 'script_eval', scriptUrl: 'http://cdn.pcp.test/app.js', scriptKind: 'sync', start: 8, end: 9 },
      { id: 'comp_2', kind: 'event', eventName: name!, eventTarget: target!, start: 9, end: 10 },
      { id: 'comp_1_1', kind: 'script_eval', scriptUrl: 'http://cdn.pcp.test/app.js', scriptKind: 'sync', start: 10, end: 12 },
      res('img', 'http://cdn.pcp.test/rest.gif', 'image/gif', 300),
    ], [['doc', 'p0', 'resource-chunk'], ['p0', 'js', 1], ['js', 'comp_1_0', 10], ['comp_1_0', 'comp_2', 25], ['comp_2', 'comp_1_1', 'split'], ['comp_1_1', 'img', 2]]);
    const site = synthesizeSite(g);
    const js = site.responses.find((r) => r.url.endsWith('app.js'))!.body.toString();
    const rest = '(function(){B(2);E("img","http://cdn.pcp.test/rest.gif");})();';
    if (name === 'resize') assert.ok(js.includes(`V("dispatch","resize",function(){B(1);},window);${rest}`), js);
    else {
      assert.ok(js.includes(`B(1);${rest}`), js);
      assert.match(site.warnings.join('\n'), /DOMNodeInserted\) cannot be caused in the synthesized page: a mutation event/);
    }
  }
});

test('an element event only the browser or the user fires (a blur at the capture\'s end, a click) is a warning, not a script\'s dispatch', () => {
  const g = scriptPage(PAGE, 'http://cdn.pcp.test/app.js', 'application/javascript', [
    { id: 'b', kind: 'event', eventName: 'blur', eventTarget: 'Element', start: 900, end: 901 },
    { id: 'c', kind: 'event', eventName: 'click', eventTarget: 'Element', start: 9, end: 10 },
  ], [['p0', 'b', 25], ['s', 'c', 25]]);
  const site = synthesizeSite(g);
  assert.doesNotMatch(site.responses.find((r) => r.url.endsWith('app.js'))!.body.toString(), /V\(/);
  assert.equal(site.warnings.filter((w) => /cannot be caused in the synthesized page: only the browser or the user fires it/.test(w)).length, 2);
});
