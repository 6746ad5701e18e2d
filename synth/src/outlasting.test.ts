import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ResourceNode } from '@pcp/graph-builder';
import { indexGraph } from './graph-index.ts';
import { outlastsFrameLoad } from './outlasting.ts';
import { roundTrip } from './roundtrip.ts';
import { synthesizeSite } from './site.ts';
import { scriptPage, res } from './testing.ts';

const CHROMIUM = existsSync('/usr/bin/chromium');
const PAGE = 'http://www.pcp.test/';
const TAG = 'http://www.pcp.test/tag.js';
const SCA = 'http://cdn.pcp.test/sca.js';
const SPAN_MS = 5000;

/** tag.js (run at 8 ms) requests sca.js at 10 ms, downloading for 5 s and run after it; the page's load fires at `loadAt`. */
function page(loadAt: number) {
  return scriptPage(PAGE, TAG, 'application/javascript', [
    res('sca', SCA, 'application/javascript', 500, { start: 10, end: 10 + SPAN_MS }),
    { id: 's2', kind: 'script_eval', scriptUrl: SCA, scriptKind: 'sync', start: 11 + SPAN_MS, end: 12 + SPAN_MS },
    { id: 'winload', kind: 'event', eventName: 'load', eventTarget: 'Window', start: loadAt, end: loadAt + 1 },
  ], [['s', 'sca', 2], ['sca', 's2', 10], ['sca', 'winload', 25]]);
}
const sca = (g: ReturnType<typeof page>): ResourceNode => g.nodes.find((n) => n.id === 'sca') as ResourceNode;
const tagJs = (g: ReturnType<typeof page>): string => synthesizeSite(g).responses.find((r) => r.url === TAG)!.body.toString();

test('a script downloading while its frame fired load is inserted into a new about:blank frame; one that ended before is not', () => {
  const during = page(100);
  assert.equal(outlastsFrameLoad(indexGraph(during), sca(during)), true);
  assert.match(tagJs(during), /E\("script","http:\/\/cdn\.pcp\.test\/sca\.js",null,null,I\(\)\)/);
  const after = page(SPAN_MS + 100);
  assert.equal(outlastsFrameLoad(indexGraph(after), sca(after)), false);
  assert.match(tagJs(after), /E\("script","http:\/\/cdn\.pcp\.test\/sca\.js"\)/);
  assert.doesNotMatch(tagJs(after), /I\(\)/);
});

test('in Chromium the page load does not wait for it, and it still runs', { skip: !CHROMIUM && 'no Chromium', timeout: 300_000 }, async () => {
  const work = mkdtempSync(join(tmpdir(), 'pcp-outlasting-'));
  try {
    const file = join(work, 'g.json');
    writeFileSync(file, JSON.stringify(page(100)));
    const rt = await roundTrip(file, join(work, 'rt'));
    const built = rt.built.nodes.find((n): n is ResourceNode => n.kind === 'resource' && n.url === SCA);
    const load = rt.built.nodes.find((n) => n.id === rt.built.markers?.load);
    assert.ok(built && load, 'sca.js and the load event are in the rebuilt graph');
    assert.ok(load.start < built.end, `load at ${load.start} ms waited for sca.js (ends ${built.end} ms)`);
    assert.ok(rt.built.nodes.some((n) => n.kind === 'script_eval' && n.scriptUrl === SCA), 'sca.js ran');
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
