import { test } from 'node:test';
import assert from 'node:assert/strict';
import { synthesizeSite } from './site.ts';
import { frameMessage } from './frame-messages.ts';
import { indexGraph } from './graph-index.ts';
import { responderPage as responderPageOf } from './testing.ts';

const PAGE = 'http://www.pcp.test/';
const FRAME = 'http://login.pcp.test/responder.html';
const responderPage = () => responderPageOf(PAGE, FRAME);

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
