/**
 * The loader-start handler and the network timing the requests handler reads, on a real Chromium 156
 * trace (fixtures/r04-sync-script-blocks: index.html declares blocking.js, a parser-blocking script the
 * server holds ~200 ms, and after.png).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runFixture } from './test-support.ts';

const file = (url: string) => url.split('/').pop();

test('each loader start is found through its flow to the response that names the url', () => {
  const { loaderStarts, frames } = runFixture('r04-sync-script-blocks');
  const byFile = new Map([...loaderStarts.starts].map(([url, ts]) => [file(url), ts.map(frames.ms)]));
  assert.deepEqual([...byFile.keys()].sort(), ['after.png', 'blocking.js', 'favicon.ico', 'index.html']);
  for (const ts of byFile.values()) assert.equal(ts.length, 1);
  assert.ok(byFile.get('index.html')![0]! < 0, "the navigation's loader starts in the browser before time 0");
});

test('requests get their release (the loader start at or after the send) and the network service times', () => {
  const { requests } = runFixture('r04-sync-script-blocks');
  const byFile = new Map(requests.requests.map((r) => [file(r.url), r]));
  const doc = byFile.get('index.html')!;
  assert.equal(doc.released, undefined, 'the navigation loader started before the renderer sent (time 0)');
  for (const name of ['blocking.js', 'after.png']) {
    const r = byFile.get(name)!;
    const n = r.network!;
    assert.ok(r.released! >= r.send, `${name}: released after its send`);
    assert.ok(n.sent >= r.released!, `${name}: on the socket after its release`);
    assert.ok(n.headers >= n.sent && n.finish! >= n.headers, `${name}: headers and end in order`);
    assert.ok(r.finish! >= n.finish!, `${name}: the renderer finishes after the network`);
    assert.equal(n.connect, 0, `${name}: a reused connection`);
  }
  // blocking.js: the server held it ~200 ms between the request on the socket and its headers.
  const js = byFile.get('blocking.js')!.network!;
  assert.ok(js.headers - js.sent > 150, `server wait ${js.headers - js.sent}`);
});
