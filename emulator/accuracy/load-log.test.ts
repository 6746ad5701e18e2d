import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, appendFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appendLoad, cellKey, loadsByCell, LOG_FILE, parseLoadLog, readLoadLog } from './load-log.ts';

test('load log: appended loads read back by cell; a line cut short by a kill is skipped', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pcp-load-log-'));
  try {
    assert.deepEqual(readLoadLog(dir), []);
    appendLoad(dir, { page: 'a', condition: '5mbit/40ms/h1', load: 400, dcl: 200, misses: 0 });
    appendLoad(dir, { page: 'a', condition: '5mbit/40ms/h1', load: 410, dcl: 210, misses: 1, warm: 'the document reused a connection' });
    appendLoad(dir, { page: 'b', condition: '5mbit/40ms/h2', load: 300, dcl: 100, misses: 0, protocol: 'h2' });
    appendFileSync(join(dir, LOG_FILE), '{"page":"b","condition":"5mb');
    const by = loadsByCell(readLoadLog(dir));
    assert.deepEqual([...by.keys()], [cellKey('a', '5mbit/40ms/h1'), cellKey('b', '5mbit/40ms/h2')]);
    assert.deepEqual(by.get(cellKey('a', '5mbit/40ms/h1'))!.map((l) => l.load), [400, 410]);
    assert.equal(by.get(cellKey('b', '5mbit/40ms/h2'))![0]!.protocol, 'h2');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('parseLoadLog: lines without a page, condition and finite times are not loads', () => {
  assert.deepEqual(parseLoadLog('{"page":"a"}\nnull\n{"page":"a","condition":"c","load":null,"dcl":1}\n\n'), []);
});
