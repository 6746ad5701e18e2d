import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseSiteList } from './site-list.ts';
import { pageId } from './layout.ts';

test('a site list: URLs with their line numbers, comments and blanks skipped, bad lines reported by number', () => {
  const { sites, bad } = parseSiteList('# sites\nhttp://a.test/\n\n  https://b.test/x?y=1  \nnot a url\nftp://c.test/\nhttp://a.test/\r\n');
  assert.deepEqual(sites.map((s) => [s.line, s.url, s.id]), [
    [2, 'http://a.test/', pageId('http://a.test/')],
    [4, 'https://b.test/x?y=1', pageId('https://b.test/x?y=1')],
  ]);
  assert.deepEqual(bad, [
    { line: 5, text: 'not a url', reason: 'not a URL' },
    { line: 6, text: 'ftp://c.test/', reason: 'not an http(s) URL (ftp:)' },
    { line: 7, text: 'http://a.test/', reason: 'duplicate of line 2' },
  ]);
  assert.deepEqual(parseSiteList(''), { sites: [], bad: [] });
});
