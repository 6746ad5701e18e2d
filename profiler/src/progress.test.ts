import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { Progress } from './progress.ts';

/** A non-TTY stream that keeps what is written. */
function sink(): { stream: NodeJS.WriteStream; text: () => string } {
  let text = '';
  const w = new Writable({ write(chunk, _enc, cb) { text += String(chunk); cb(); } });
  return { stream: w as unknown as NodeJS.WriteStream, text: () => text };
}

test('off a TTY, one line per decile and one at the end, with the failures counted', () => {
  const s = sink();
  const p = new Progress(20, 'build', s.stream);
  for (let i = 0; i < 20; i++) p.tick(i !== 3);
  const lines = s.text().trim().split('\n');
  assert.equal(lines.length, 11, s.text());
  assert.match(lines[0]!, /^build: 1\/20 \(/);
  assert.match(lines.at(-1)!, /^build: 20\/20, 1 failed \(\d+\.\ds\)$/);
});

test('an empty batch reports itself done', () => {
  const s = sink();
  new Progress(0, 'none', s.stream);
  assert.equal(s.text(), '');
  const p = new Progress(1, 'one', s.stream);
  p.tick();
  assert.match(s.text(), /^one: 1\/1 \(/);
});
