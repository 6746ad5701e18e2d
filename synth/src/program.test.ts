import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { GraphNode, ResourceNode } from '@pcp/graph-builder';
import { lateRequestMs } from './program.ts';
import { synthesizeSite } from './site.ts';
import { res, scriptPage } from './testing.ts';

const PAGE = 'http://www.pcp.test/';
const RUM = 'http://www.pcp.test/rum.js';
const BEACON = 'http://ads.pcp.test/ga-audiences';

/** rum.js (evaluated 8-9 ms) requests the image `beacon`, recorded at `at` ms. */
const page = (at: number) => scriptPage(PAGE, RUM, 'application/javascript', [res('beacon', BEACON, 'image/gif', 42, { start: at, end: at + 80 })], [['s', 'beacon', 2]]);
const node = (g: ReturnType<typeof page>, id: string): GraphNode => g.nodes.find((n) => n.id === id)!;

test('a request recorded over a second after its script ended is made that long after; a sooner one at once', () => {
  const late = page(6527);
  assert.equal(lateRequestMs(node(late, 's'), node(late, 'beacon') as ResourceNode), 6518);
  const soon = page(900);
  assert.equal(lateRequestMs(node(soon, 's'), node(soon, 'beacon') as ResourceNode), 0);
  // A style sheet's images are requested at layout: later by nature, at once in the replay.
  const sheet = { id: 'c', kind: 'css_eval', frame: 'main', styleUrl: 'http://www.pcp.test/a.css', start: 8, end: 9 } as GraphNode;
  assert.equal(lateRequestMs(sheet, node(late, 'beacon') as ResourceNode), 0);
});

test('the synthesized script makes a late request from a timer of its recorded gap', () => {
  const js = (g: ReturnType<typeof page>): string => synthesizeSite(g).responses.find((r) => r.url === RUM)!.body.toString();
  assert.match(js(page(6527)), new RegExp(`setTimeout\\(function\\(\\)\\{E\\("img","${BEACON.replace(/[./]/g, '\\$&')}"\\);\\},6518\\)`));
  assert.doesNotMatch(js(page(900)), /setTimeout/);
  assert.match(js(page(900)), /E\("img","http:\/\/ads\.pcp\.test\/ga-audiences"\)/);
});
