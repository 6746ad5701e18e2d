import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cssUrl, htmlAttr, jsString } from './escape.ts';

const hostile = `http://x.test/a"><script>alert(1)</script><!--'\u2028\\`;

test('htmlAttr leaves no quote or tag open', () => {
  const s = htmlAttr(hostile);
  assert.doesNotMatch(s, /["'<>]/);
  assert.match(s, /&quot;&gt;&lt;script&gt;/);
});

test('jsString is a literal that evaluates back to the input and cannot close a script', () => {
  const s = jsString(hostile);
  assert.doesNotMatch(s, /<\/script|<!--|\u2028/i);
  assert.equal(JSON.parse(s.replace(/\\u2028/g, '\\u2028')), hostile);
  assert.equal(new Function(`return ${s}`)(), hostile);
});

test('cssUrl escapes what would end the url() or the style element', () => {
  const s = cssUrl(hostile);
  assert.doesNotMatch(s.slice(5, -2), /["'<>]/);
});
