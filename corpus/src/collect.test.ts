import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { collectTables } from './collect.ts';
import { writeLegacyTestCorpus } from './testing/index.ts';

/** Every directory a test makes lies in here, removed when the file's tests end. */
const scratch = mkdtempSync(join(tmpdir(), 'pcp-collect-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

test('collectTables: rows of every valid page in JSON lines; a corrupt graph reported and skipped', () => {
  const dir = mkdtempSync(join(scratch, 'd-'));
  const ids = writeLegacyTestCorpus(join(dir, 'c'), 2);
  const bad = join(dir, 'c', 'pages', 'bad-1');
  mkdirSync(bad);
  writeFileSync(join(bad, 'graph.json'), JSON.stringify({ schemaVersion: 1, page: { url: 'http://bad/' } }));
  writeFileSync(join(bad, 'DONE'), '');
  const seen: string[] = [];
  const c = collectTables(join(dir, 'c'), join(dir, 'work'), { onGraph: (p, g) => seen.push(`${p.id} ${g.nodes.length}`) });
  assert.deepEqual(c.pages.map((p) => p.id), ids);
  assert.equal(c.skipped.length, 1);
  assert.equal(c.skipped[0]!.id, 'bad-1');
  assert.match(c.skipped[0]!.reason, /must have required property/);
  const pages = readFileSync(join(dir, 'work', 'pages.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { page_id: string; nodes: number });
  assert.deepEqual(pages.map((p) => `${p.page_id} ${p.nodes}`), seen);
  const nodes = readFileSync(join(dir, 'work', 'nodes.jsonl'), 'utf8').trim().split('\n');
  assert.equal(nodes.length, c.rows.nodes);
  assert.equal(c.rows.nodes, pages.reduce((s, p) => s + p.nodes, 0));
});
