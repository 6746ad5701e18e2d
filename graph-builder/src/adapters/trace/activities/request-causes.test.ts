/** Where each request comes from, on a real Chromium 156 trace of profiler/example-site. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isTokenKey } from './context.ts';
import { readFileSync } from 'node:fs';
import { initiatorsFromDevtoolsLog } from '../index.ts';
import { fixtureDir } from '../handlers/test-support.ts';
import { contextOf, path } from './test-support.ts';

test('example-site: tags for parser-declared requests, computations for scripted ones, the sheet for its image', () => {
  const ctx = contextOf('example-site.trace.json.gz');
  const cause = (file: string) => {
    const r = ctx.requests.find((x) => path(x.url) === file)!;
    return ctx.issued.get(r)!;
  };
  for (const [file, doc, line] of [['/style.css', 'doc_0', 6], ['/app.js', 'doc_0', 7], ['/analytics.js', 'doc_0', 8], ['/widgets.js', 'doc_0', 9], ['/hero.png', 'doc_0', 13], ['/frame/embed.js', 'doc_1', 3], ['/frame/badge.png', 'doc_1', 4]] as const) {
    const c = cause(file);
    assert.ok(isTokenKey(c) && c.doc === doc && c.line === line, `${file}: tag on line ${line} of ${doc}`);
  }
  const compOf = (file: string) => ctx.compSlices.find((sl) => path(sl.url) === file)!;
  assert.deepEqual(cause('/stripe.png'), { kind: 'computation', id: ctx.compOfSlice.get(compOf('/style.css').index), at: Infinity });
  const timer = ctx.compSlices.find((sl) => sl.kind === 'timer')!;
  const news = cause('/news.json');
  assert.ok(!isTokenKey(news) && news.kind === 'computation' && news.id === ctx.compOfSlice.get(timer.index), 'the XHR is the timer\'s');
  const beacon = cause('/beacon.png');
  assert.ok(!isTokenKey(beacon) && beacon.kind === 'computation' && beacon.id === ctx.compOfSlice.get(compOf('/analytics.js').index), 'the image is the async script\'s');
  assert.deepEqual(cause('/index.html'), { kind: 'none' });
  assert.ok(!ctx.requests.some((r) => path(r.url) === '/favicon.ico'), 'Chromium\'s favicon request is not the page\'s');
  assert.deepEqual(ctx.warnings, []);
});

test('r22: an iframe document\'s cause is its <iframe> tag: the DevTools log\'s initiator, else the parse slice that created the frame', () => {
  const log = JSON.parse(readFileSync(`${fixtureDir('r22-frame-script')}/devtools.log.json`, 'utf8')) as unknown;
  const causes = [initiatorsFromDevtoolsLog(log), new Map()].map((extraInitiators) => {
    const ctx = contextOf('r22-frame-script', 'causes', { extraInitiators });
    return ctx.issued.get(ctx.requests.find((r) => path(r.url).endsWith('/frame.html'))!)!;
  });
  for (const c of causes) assert.ok(isTokenKey(c) && c.tag === 'iframe' && c.doc === 'doc_0', JSON.stringify(c));
  const [logged, created] = causes as Array<{ line: number; column: number; bound?: number }>;
  assert.ok(logged!.column > 1, 'the log names the tag\'s column');
  assert.equal(created!.column, 1, 'a parse slice knows only its line');
  assert.ok(created!.bound !== undefined, 'reached by the time the frame was created');
});
