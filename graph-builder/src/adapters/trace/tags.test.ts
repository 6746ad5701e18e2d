import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findTag, tagRefs } from './tags.ts';

// profiler/test-sites/r03-parse-chunks: the document arrives in 256-byte pieces, and Chromium reported
// a.png's parser initiator at line 8 (where the first piece ended) although its tag is on line 6.
const html = [
  '<!doctype html>',
  '<html><head><meta charset="utf-8"><title>t</title></head>',
  '<body>',
  '<p>text</p>',
  '<p>text</p>',
  '<img src="a.png" alt="a">',
  '<p>filler</p>',
  '<p>filler</p>',
  "<img src='b.png?x=1&amp;y=2' alt=b>",
  '<link rel=stylesheet href=style.css>',
  '<img src="a.png">',
].join('\n');

test('tags are found at or before the reported position, resolved against the document', () => {
  const refs = tagRefs(html, 'http://a.test/dir/index.html');
  assert.deepEqual(refs.map((r) => [r.url, r.line]), [
    ['http://a.test/dir/a.png', 6],
    ['http://a.test/dir/b.png?x=1&y=2', 9],
    ['http://a.test/dir/style.css', 10],
    ['http://a.test/dir/a.png', 11],
  ]);
  assert.equal(findTag(refs, 'http://a.test/dir/a.png', 8, 1)?.line, 6);
  // The second a.png tag once the parser is past it; the first after the position when none precedes.
  assert.equal(findTag(refs, 'http://a.test/dir/a.png', 11, 20)?.line, 11);
  assert.equal(findTag(refs, 'http://a.test/dir/style.css', 2, 1)?.line, 10);
  assert.equal(findTag(refs, 'http://a.test/dir/b.png?x=1&y=2#frag', 9, 40)?.column, 11);
  assert.equal(findTag(refs, 'http://a.test/other.png', 9, 1), undefined);
});
