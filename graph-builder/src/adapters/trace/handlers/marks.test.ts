/** The marks handler on real Chromium 156 traces (../fixtures). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runFixture } from './test-support.ts';

test('each frame\'s DOMContentLoaded, then load; the iframe loads before the page; sorted by time', () => {
  for (const name of ['example-site.trace.json.gz', 'ev-message', 'r22-frame-script']) {
    const { marks, frames } = runFixture(name);
    for (let i = 1; i < marks.marks.length; i++) assert.ok(marks.marks[i - 1]!.time <= marks.marks[i]!.time, name);
    assert.equal(marks.marks.length, 2 * frames.frames.size, `${name}: both marks of every frame`);
    const at = (frame: string, n: string) => marks.marks.find((m) => m.frame === frame && m.name === n)!.time;
    for (const f of frames.frames.keys()) assert.ok(at(f, 'domContentLoaded') <= at(f, 'load'), name);
    for (const f of frames.frames.values()) if (f.parent) assert.ok(at(f.id, 'load') <= at(f.parent, 'load'), `${name}: the iframe's load first`);
  }
});
