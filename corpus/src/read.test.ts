import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CORPUS_FORMAT } from './layout.ts';
import { CorpusError, readCorpus, readJsonLines } from './read.ts';

/** Every directory a test makes lies in here, removed when the file's tests end. */
const scratch = mkdtempSync(join(tmpdir(), 'pcp-layout-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

test('readCorpus lists finished pages only, with their status, and the failures', () => {
  const dir = mkdtempSync(join(scratch, 'd-'));
  writeFileSync(join(dir, 'corpus.json'), JSON.stringify({ format: CORPUS_FORMAT, source: 'sites', created: 'now', settings: {}, siteList: 'sites.txt' }));
  for (const [id, done] of [['b-1', true], ['a-2', true], ['c-3', false]] as const) {
    mkdirSync(join(dir, 'pages', id), { recursive: true });
    writeFileSync(join(dir, 'pages', id, 'status.json'), JSON.stringify({ url: `http://${id}/`, id, status: 'ok', attempts: 1 }));
    if (done) writeFileSync(join(dir, 'pages', id, 'DONE'), '');
  }
  writeFileSync(join(dir, 'failures.jsonl'), '{"url":"http://x/","id":"x","reason":"unreachable","attempts":3}\nnot json\n');
  const c = readCorpus(dir);
  assert.deepEqual(c.pages.map((p) => [p.id, p.status?.url]), [['a-2', 'http://a-2/'], ['b-1', 'http://b-1/']]);
  assert.deepEqual(c.unfinished, ['c-3']);
  assert.deepEqual(c.failures.map((f) => f.reason), ['unreachable']);
  const problems: string[] = [];
  readJsonLines(join(dir, 'failures.jsonl'), problems);
  assert.deepEqual(problems, [`${join(dir, 'failures.jsonl')}:2: not a JSON line`]);
});

test('readCorpus: a directory that is not a corpus is a one-line error naming it', () => {
  const dir = mkdtempSync(join(scratch, 'd-'));
  assert.throws(() => readCorpus(dir), (e: Error) => e instanceof CorpusError && e.message === `${dir}: not a corpus directory (no corpus.json)`);
  writeFileSync(join(dir, 'corpus.json'), '{"format": "other/2"}');
  assert.throws(() => readCorpus(dir), /format is "other\/2", expected "pcp-corpus\/1"/);
  writeFileSync(join(dir, 'corpus.json'), '{');
  assert.throws(() => readCorpus(dir), /corpus\.json: not valid JSON/);
});
