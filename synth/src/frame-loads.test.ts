import { test } from 'node:test';
import assert from 'node:assert/strict';
import { indexGraph } from './graph-index.ts';
import { frameLoadOwner, frameLoads } from './frame-loads.ts';
import { elementEvents } from './program.ts';
import { graphOf, res } from './testing.ts';
import type { EventNode, ResourceNode } from '@pcp/graph-builder';

const page = 'http://frames.pcp.test/';
const AD = 'http://ad.pcp.test/frame.html';
const frames = [{ id: 'main', url: page, parent: null }, { id: 'ad', url: AD, parent: 'main' }];
/** www.reddit.com's shape: the page inserts an ad frame; its two pixels and its document are parents of one `Element` load in the page. */
function adFrame(loadFrame = 'main') {
  return graphOf(page, [
    res('doc', page, 'text/html', 100),
    res('frame', AD, 'text/html', 100, { frame: 'ad', start: 10, end: 20 }),
    res('px1', 'http://px.pcp.test/1.gif', 'image/gif', 43, { frame: 'ad', start: 30, end: 40 }),
    res('px2', 'http://px.pcp.test/2.gif', 'image/gif', 43, { frame: 'ad', start: 31, end: 45 }),
    res('img', 'http://frames.pcp.test/own.gif', 'image/gif', 43, { start: 5, end: 8 }),
    { id: 'fl', kind: 'event', eventName: 'load', eventTarget: 'Element', frame: loadFrame, start: 50, end: 51 },
    { id: 'il', kind: 'event', eventName: 'load', eventTarget: 'Element', start: 9, end: 9.5 },
  ], [['frame', 'fl', 25], ['px1', 'fl', 25], ['px2', 'fl', 25], ['img', 'il', 25]], frames);
}
const ev = (ix: ReturnType<typeof indexGraph>, id: string) => ix.byId.get(id) as EventNode;
const r = (ix: ReturnType<typeof indexGraph>, id: string) => ix.byId.get(id) as ResourceNode;

test("an element load hung off a frame's resources is its iframe's: the load handler goes on the iframe, not on each pixel", () => {
  const ix = indexGraph(adFrame());
  assert.equal(frameLoadOwner(ix, ev(ix, 'fl'))?.id, 'frame');
  assert.equal(frameLoadOwner(ix, ev(ix, 'il')), undefined, "an image's own load (one parent, its frame)");
  assert.equal(elementEvents(ix, r(ix, 'frame')).load?.id, 'fl');
  assert.equal(elementEvents(ix, r(ix, 'px1')).load, undefined);
  assert.equal(elementEvents(ix, r(ix, 'px2')).load, undefined);
  assert.equal(elementEvents(ix, r(ix, 'img')).load?.id, 'il');
  assert.deepEqual([...frameLoads(ix).keys()], ['fl']);
});

test("a load dispatched in a frame that does not hold the iframe of its parents' frame stays each parent's, as the graph draws it", () => {
  const ix = indexGraph(adFrame('ad'));
  assert.equal(frameLoadOwner(ix, ev(ix, 'fl')), undefined);
  assert.equal(elementEvents(ix, r(ix, 'px1')).load?.id, 'fl');
});
