/** Documents' tokens, on a real Chromium 156 trace of profiler/example-site. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computationActivities } from './computations.ts';
import { buildTokens, documentActivities, type TokenIndex } from './documents.ts';
import type { Slice, TraceRequest } from '../load.ts';
import { contextOf, path } from './test-support.ts';

test('each document\'s tokens in source order, never back in time, ending at the end of parsing; every key numbered', () => {
  const ctx = contextOf('example-site.trace.json.gz');
  computationActivities(ctx);
  const { documents, tokenIndex } = documentActivities(ctx);
  assert.deepEqual(documents.map((d) => path(d.url)), ['/index.html', '/frame/embed.html']);
  for (const d of documents) {
    const req = ctx.requests.find((r) => ctx.resId.get(r) === d.resource)!;
    assert.equal(req.url, d.url);
    for (let i = 1; i < d.tokens.length; i++) {
      const [a, b] = [d.tokens[i - 1]!, d.tokens[i]!];
      assert.ok(a.line < b.line || (a.line === b.line && a.column < b.column), 'source order');
      assert.ok(a.start <= b.start, 'the parser is sequential');
      assert.ok(a.offset <= b.offset);
    }
    const end = d.tokens[d.tokens.length - 1]!;
    assert.equal(end.tag, '#end');
    assert.ok(end.offset >= req.decodedLength);
  }
  assert.equal(tokenIndex.size, ctx.tokenKeys.length);
  for (const [key, { doc, token }] of tokenIndex) {
    const t = documents.find((d) => d.id === doc)!.tokens[token]!;
    assert.deepEqual([key.doc, t.line, t.column], [doc, key.line, key.column]);
  }
});

test("without parsed-byte counts, a token's offset is the body received before its predecessor's parse slice began (a trickled document)", () => {
  // r03-parse-chunks as recorded: 256-byte pieces reach the renderer at 12.9, 541.7 and 695.4 ms, the last 54
  // bytes at 843.5; a parse slice follows each piece; images at lines 7, 9 and 12.
  const req: TraceRequest = {
    requestId: 'doc', url: 'http://a.test/index.html', frame: 'f', resourceType: 'Document', method: 'GET', send: 0, response: 0, finish: 850,
    chunks: [{ time: 12.9, bytes: 256 }, { time: 541.7, bytes: 256 }, { time: 695.4, bytes: 256 }, { time: 843.5, bytes: 54 }],
    encodedLength: 822, decodedLength: 822, failed: false, fromCache: false, status: 200, mimeType: 'text/html',
  };
  const slice = (index: number, line: number, start: number): Slice => ({ index, kind: 'parse', name: 'ParseHTML', line, start, end: start + 1, thread: '1:1' });
  const parses = [slice(0, 1, 41), slice(1, 5, 542), slice(2, 8, 697), slice(3, 10, 844)];
  const keys = [7, 9, 12].map((line) => ({ doc: 'doc', line, column: 5, tag: 'img' }));
  const tokens = buildTokens(parses, keys, req, new Map() as TokenIndex, 'doc');
  assert.deepEqual(tokens.map((t) => [t.line, t.tag, t.offset]), [
    [1, '#parse', 0],
    [5, '#parse', 256], // the slice before began at 41, after the first piece
    [7, 'img', 512], // parsed in the slice that began at 542: the second piece had arrived
    [8, '#parse', 512],
    [9, 'img', 768],
    [10, '#parse', 768],
    [12, 'img', 822],
    [12, '#end', 822],
  ]);
});
