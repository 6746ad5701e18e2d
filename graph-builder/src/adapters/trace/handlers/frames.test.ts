/** The frames handler on real Chromium 156 traces (../fixtures). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TraceContentError } from '../errors.ts';
import { parseTrace } from '../reader.ts';
import { frameHandler } from './frames.ts';
import { runHandlers } from './run.ts';
import { fixtureEvents, runFixture } from './test-support.ts';

const path = (url: string) => new URL(url).pathname;

test('example-site: the main frame is index.html, its iframe embed.html; time 0 is the main document\'s request', () => {
  const events = fixtureEvents('example-site.trace.json.gz');
  const { frames } = runFixture('example-site.trace.json.gz', events);
  const list = [...frames.frames.values()];
  assert.deepEqual(list.map((f) => path(f.url)), ['/index.html', '/frame/embed.html']);
  assert.equal(list[0]!.id, frames.mainFrame);
  assert.equal(list[0]!.parent, null);
  assert.equal(list[1]!.parent, frames.mainFrame);
  const send = events.find((e) => e.name === 'ResourceSendRequest' && (e.args?.data as { url?: string }).url?.endsWith('/index.html'))!;
  assert.equal(frames.origin, send.ts);
  assert.equal(frames.ms(send.ts + 1500), 1.5);
  assert.deepEqual(frames.warnings, []);
});

test('frames of other pages (the WebUI renderer\'s chrome:// documents) are not the page\'s', () => {
  for (const name of ['ev-message', 'r22-frame-script']) {
    const { frames } = runFixture(name);
    for (const f of frames.frames.values()) {
      assert.match(f.url, /^http:/, name);
      let hops = 0;
      for (let p = f; p.parent !== null; p = frames.frames.get(p.parent)!) assert.ok(++hops < 10);
    }
  }
});

test('an iframe whose commit names no parent hangs off the main frame, with a warning; frames.json overrides', () => {
  // As an out-of-process iframe commits: in its own renderer, without `parent`.
  const events = fixtureEvents('ev-message').map((e) => {
    const d = e.args?.data as Record<string, unknown> | undefined;
    if ((e.name !== 'CommitLoad' && e.name !== 'FrameCommittedInBrowser') || !d?.parent) return e;
    const { parent: _, ...rest } = d;
    return { ...e, args: { ...e.args, data: rest } };
  });
  const { frames } = runHandlers(events, { frames: frameHandler() });
  const sender = [...frames.frames.values()].find((f) => f.url.endsWith('/sender.html'))!;
  assert.equal(sender.parent, frames.mainFrame);
  assert.match(frames.warnings.join('\n'), /sender\.html committed out of process with no parent/);
  const told = runHandlers(events, { frames: frameHandler({ frameParents: new Map([[sender.id, frames.mainFrame]]) }) }).frames;
  assert.deepEqual(told.warnings, []);
});

test('a trace without a document request is a clear error', () => {
  const events = parseTrace('[{"name":"CommitLoad","ph":"X","ts":1,"pid":1,"tid":1,"args":{"data":{"frame":"F","url":"http://x/"}}}]').events;
  assert.throws(() => runHandlers(events, { frames: frameHandler() }), TraceContentError);
});
