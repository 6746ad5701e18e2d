import { test } from 'node:test';
import assert from 'node:assert/strict';
import { indexGraph } from './graph-index.ts';
import { neverRun } from './never-run.ts';
import { synthesizeSite } from './site.ts';
import { writeSiteBundle } from './bundle.ts';
import { readArchive } from '@pcp/replay';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { neverRunPage } from './testing.ts';

const PAGE = 'http://www.pcp.test/';

test('a script its element never ran (no evaluation of its URL, no load or error) is told apart from scripts that ran', () => {
  const ix = indexGraph(neverRunPage(PAGE));
  const r = (id: string) => ix.byId.get(id) as never;
  assert.equal(neverRun(ix, r('js')), false, 'evaluated');
  assert.equal(neverRun(ix, r('idle')), true, 'requested by the parser, never run');
  assert.equal(neverRun(ix, r('called')), false, 'its function called by a timer (a callee evaluation of its URL)');
  assert.equal(neverRun(ix, r('loaded')), false, 'its element fired load');
  assert.equal(neverRun(ix, r('img')), false, 'an image');
});

test('it is served as text/plain with nosniff (Chromium requests it and refuses to run it); a script that ran keeps its type', () => {
  const site = synthesizeSite(neverRunPage(PAGE));
  const by = new Map(site.responses.map((r) => [r.url, r]));
  assert.equal(by.get('http://cdn.pcp.test/idle.js')!.noRun, true);
  assert.equal(by.get('http://cdn.pcp.test/app.js')!.noRun, undefined);
  assert.match(site.responses.find((r) => r.url === PAGE)!.body.toString(), /<script src="http:\/\/cdn\.pcp\.test\/idle\.js"/);
  const dir = mkdtempSync(join(tmpdir(), 'pcp-never-run-'));
  try {
    writeSiteBundle(dir, site, 'never-run.json');
    const entries = readArchive(dir).entries;
    const headers = (url: string) => Object.fromEntries(entries.find((e) => e.url === url)!.headers.map((h) => [h.name.toLowerCase(), h.value]));
    assert.equal(headers('http://cdn.pcp.test/idle.js')['content-type'], 'text/plain; charset=utf-8');
    assert.equal(headers('http://cdn.pcp.test/idle.js')['x-content-type-options'], 'nosniff');
    assert.equal(headers('http://cdn.pcp.test/app.js')['content-type'], 'application/javascript; charset=utf-8');
    assert.equal(headers('http://cdn.pcp.test/app.js')['x-content-type-options'], undefined);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
