import { test } from 'node:test';
import assert from 'node:assert/strict';
import { synthesizeSite } from './site.ts';
import { frameMessage } from './frame-messages.ts';
import { indexGraph } from './graph-index.ts';
import { graphOf, res } from './testing.ts';

const PAGE = 'http://www.pcp.test/';
const FRAME = 'http://login.pcp.test/responder.html';

/**
 * espn.co.uk's shape: the page's script inserts a cross-origin frame whose script posts a message to
 * the page (`m1`); the page's handler posts one back into the frame (`m2`), whose handler requests an image.
 */
function responderPage() {
  return graphOf(PAGE, [
    res('doc', PAGE, 'text/html', 500),
    { id: 'p0', kind: 'parse_chunk', docUrl: PAGE, startLine: 1, startColumn: 16, endLine: 1, endColumn: 20, start: 1, end: 2 },
    res('js', 'http://www.pcp.test/app.js', 'application/javascript', 900, { start: 2, end: 5 }),
    { id: 's', kind: 'script_eval', scriptUrl: 'http://www.pcp.test/app.js', scriptKind: 'sync', start: 5, end: 6 },
    res('fr', FRAME, 'text/html', 400, { start: 6, end: 10 }),
    { id: 'fp0', kind: 'parse_chunk', docUrl: FRAME, startLine: 1, startColumn: 1, endLine: 1, endColumn: 20, frame: 'ad', start: 10, end: 11 },
    res('rjs', 'http://login.pcp.test/responder.js', 'application/javascript', 900, { frame: 'ad', start: 11, end: 15 }),
    { id: 'rs', kind: 'script_eval', scriptUrl: 'http://login.pcp.test/responder.js', scriptKind: 'sync', frame: 'ad', start: 15, end: 17 },
    { id: 'm1', kind: 'event', eventName: 'message', eventTarget: 'Window', start: 18, end: 19 },
    { id: 'm2', kind: 'event', eventName: 'message', eventTarget: 'Window', frame: 'ad', start: 20, end: 22 },
    res('img', 'http://login.pcp.test/p.gif', 'image/gif', 40, { frame: 'ad', start: 22, end: 30 }),
  ], [['doc', 'p0', 'resource-chunk'], ['p0', 'js', 1], ['js', 's', 10], ['s', 'fr', 2], ['fr', 'fp0', 'resource-chunk'], ['fp0', 'rjs', 1], ['rjs', 'rs', 10],
    ['rs', 'm1', 25], ['m1', 'm2', 25], ['m2', 'img', 2]],
  [{ id: 'main', url: PAGE, parent: null }, { id: 'ad', url: FRAME, parent: 'main' }]);
}

test('a message posted to the parent frame or into a child frame is told apart from one posted to the poster\'s own window', () => {
  const ix = indexGraph(responderPage());
  const at = (id: string) => ix.byId.get(id)!;
  assert.deepEqual(frameMessage(ix, at('rs'), at('m1')), { to: 'parent' });
  assert.deepEqual(frameMessage(ix, at('m1'), at('m2')), { to: 'child', src: FRAME });
  assert.equal(frameMessage(ix, at('s'), at('m1')), undefined);
});

test('the receiving frame\'s script listens for its own message; the poster posts it to that frame', () => {
  const site = synthesizeSite(responderPage());
  const body = (suffix: string): string => site.responses.find((r) => r.url.endsWith(suffix))!.body.toString();
  const responder = body('responder.js');
  // The frame's script installs the listener of m2 (its image), then posts m1 to the page.
  assert.ok(responder.includes('window.addEventListener("message",function h(e){if(e.data!=="pcp m2")return;window.removeEventListener("message",h);(function(){B(2);E("img","http://login.pcp.test/p.gif");})()});B(2);parent.postMessage("pcp m1","*");'), responder);
  // The page's script listens for m1, whose handler posts m2 into the frame it made.
  const app = body('app.js');
  assert.ok(app.includes('if(e.data!=="pcp m1")return;'), app);
  assert.ok(app.includes(`if(f[i].getAttribute("src")==="${FRAME}")f[i].contentWindow.postMessage("pcp m2","*")`), app);
  assert.deepEqual(site.warnings, []);
});
