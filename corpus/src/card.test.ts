import { test } from 'node:test';
import assert from 'node:assert/strict';
import { datasetCard, mdText, type CardInput } from './card.ts';

test('mdText: page strings cannot open markup, links or table cells', () => {
  assert.equal(mdText('http://x/<script>a|b</script>'), 'http://x/&#60;script&#62;a&#124;b&#60;/script&#62;');
  assert.equal(mdText('[click](javascript:1) *b* `c`'), '&#91;click&#93;(javascript:1) &#42;b&#42; &#96;c&#96;');
  assert.equal(mdText('two\nlines'), 'two lines');
});

const input: CardInput = {
  name: 'pcp-corpus-x', version: '2.0.1', license: 'CC0-1.0', created: '2026-01-01T00:00:00Z',
  meta: { format: 'pcp-corpus/1', source: 'sites', created: '2025-12-31T00:00:00Z', settings: { chromium: '131.0', runs: 3 }, siteList: 'sites.txt' },
  pages: 2, rows: { pages: 2, nodes: 20, edges: 30, resources: 5 }, statsMarkdown: '| metric | median |\n|---|---|\n| load (ms) | 1 |\n',
  figures: ['load-dcl-cdf'], crawlFailures: [{ url: 'http://down/', id: 'down-1', reason: 'net::ERR_NAME_NOT_RESOLVED', attempts: 3 }],
  skipped: [{ id: 'bad-2', url: 'http://bad/<i>', reason: 'graph.json: not valid JSON' }],
};

test('the card states version, licence, source, settings, stats, figures and what was left out', () => {
  const card = datasetCard(input);
  assert.match(card, /^# pcp-corpus-x 2\.0\.1\n/);
  assert.match(card, /Licence: CC0-1\.0/);
  assert.match(card, /pages loaded in Chromium by `pcp corpus build`/);
  assert.match(card, /- \*\*chromium\*\*: 131\.0\n- \*\*runs\*\*: 3/);
  assert.match(card, /\| `data\/nodes\.parquet` \| 20 rows;/);
  assert.match(card, /\| load \(ms\) \| 1 \|/);
  assert.match(card, /!\[load-dcl-cdf\]\(stats\/load-dcl-cdf\.png\)/);
  assert.match(card, /1 site\(s\) failed during the crawl; 1 page\(s\) were left out/);
  assert.match(card, /\| http:\/\/down\/ \| crawl \| net::ERR_NAME_NOT_RESOLVED \|/);
  assert.match(card, /\| http:\/\/bad\/&#60;i&#62; \| publish \| graph\.json: not valid JSON \|/);
});
