/**
 * The requests handler on a real Chromium 156 trace of profiler/example-site (../fixtures): index.html
 * declares style.css (line 6), app.js (7), analytics.js (8), widgets.js (9), hero.png (13) and the
 * iframe embed.html (15); an inline script's 50 ms timer sends an XHR for news.json; embed.html declares
 * embed.js (3) and badge.png (4).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixtureEvents, runFixture } from './test-support.ts';

const path = (url: string) => new URL(url).pathname;

test('every page request, by send time, with its parser initiator\'s line made 1-based', () => {
  const { requests, frames } = runFixture('example-site.trace.json.gz');
  const list = requests.requests;
  assert.equal(path(list[0]!.url), '/index.html');
  assert.equal(list[0]!.send, 0, 'time 0 is the main document\'s request');
  for (let i = 1; i < list.length; i++) assert.ok(list[i - 1]!.send <= list[i]!.send);
  const line = (file: string) => list.find((r) => path(r.url) === file)?.initiator?.line;
  assert.deepEqual(
    ['/style.css', '/app.js', '/analytics.js', '/widgets.js', '/hero.png', '/frame/embed.js', '/frame/badge.png'].map(line),
    [6, 7, 8, 9, 13, 3, 4],
  );
  const embed = list.find((r) => path(r.url) === '/frame/embed.html')!;
  assert.equal(embed.resourceType, 'Document');
  assert.notEqual(embed.frame, frames.mainFrame);
  for (const r of list) {
    assert.ok(r.response !== undefined && r.finish !== undefined && r.finish >= r.send, `${r.url} completed`);
    assert.equal(r.status, path(r.url) === '/favicon.ico' ? 404 : 200, r.url);
  }
  assert.equal(list.find((r) => path(r.url) === '/hero.png')!.chunks.length, 3);
  assert.deepEqual(requests.warnings, []);
});

test('what was running when a request was issued: the timer callback for the XHR, nothing for parser-declared ones', () => {
  const { requests, slices } = runFixture('example-site.trace.json.gz');
  const news = requests.requests.find((r) => path(r.url) === '/news.json')!;
  const running = slices.slices[news.runningAt!]!;
  assert.equal(running.kind, 'function');
  assert.equal(slices.slices[running.parent!]!.kind, 'timer', 'inside the timer\'s fire');
  assert.equal(requests.requests.find((r) => path(r.url) === '/hero.png')!.runningAt, undefined);
});

test('a request the trace never finishes is kept, with a warning', () => {
  const events = fixtureEvents('example-site.trace.json.gz');
  const heroId = (events.find((e) => e.name === 'ResourceSendRequest' && (e.args?.data as { url: string }).url.endsWith('/hero.png'))!.args!.data as { requestId: string }).requestId;
  const cut = events.filter((e) => !(e.name === 'ResourceFinish' && (e.args?.data as { requestId: string }).requestId === heroId));
  const { requests } = runFixture('example-site.trace.json.gz', cut);
  assert.equal(requests.requests.find((r) => r.requestId === heroId)!.finish, undefined);
  assert.deepEqual(requests.warnings.map((w) => w.replace(/http:\/\/[^/]+/, '')), ['request /hero.png never finished in the trace']);
});

test('a request sent again under its own URL keeps its first send; under a new URL it is a redirect', () => {
  const events = fixtureEvents('example-site.trace.json.gz');
  const i = events.findIndex((e) => e.name === 'ResourceSendRequest' && (e.args?.data as { url: string }).url.endsWith('/hero.png'));
  const send = events[i]!;
  const again = (url: string) => ({ ...send, ts: send.ts! + 5_000, args: { ...send.args, data: { ...(send.args!.data as object), url } } });
  const hero = (evs: typeof events) => runFixture('example-site.trace.json.gz', evs).requests.requests.find((r) => path(r.url).startsWith('/hero'))!;
  const first = hero(events);
  const resent = hero([...events.slice(0, i + 1), again((send.args!.data as { url: string }).url), ...events.slice(i + 1)]);
  assert.equal(resent.send, first.send, 'the first send is kept');
  assert.equal(resent.redirectedFrom, undefined);
  const moved = hero([...events.slice(0, i + 1), again((send.args!.data as { url: string }).url.replace('/hero.png', '/hero2.png')), ...events.slice(i + 1)]);
  assert.equal(path(moved.url), '/hero2.png');
  assert.deepEqual(moved.redirectedFrom?.map(path), ['/hero.png']);
  assert.equal(moved.send, first.send);
});
