/** Documents' tokens, on a real Chromium 156 trace of profiler/example-site. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computationActivities } from './computations.ts';
import { documentActivities } from './documents.ts';
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
