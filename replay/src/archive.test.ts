import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ArchiveError, readArchive, recordedOrigins } from './archive.ts';
import { writeBundle } from './testing.ts';

test('origins in order of first use, default ports explicit, IP literals told apart, h2 when any response was', () => {
  const o = recordedOrigins([
    { url: 'http://127.0.0.1:8000/', protocol: 'http/1.1' },
    { url: 'https://cdn.example.org/x.js', protocol: 'http/1.1' },
    { url: 'https://cdn.example.org/y.js', protocol: 'h2' },
    { url: 'http://127.0.0.1:8000/z', protocol: 'http/1.1' },
  ]);
  assert.deepEqual(o.map((x) => [x.origin, x.ipLiteral, x.protocol]), [
    ['http://127.0.0.1:8000', true, 'http/1.1'],
    ['https://cdn.example.org:443', false, 'h2'],
  ]);
});

test('readArchive: bodies decoded, fragments dropped; a bundle without an archive is a one-line error', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pcp-replay-archive-'));
  try {
    assert.throws(() => readArchive(dir), (e: Error) => e instanceof ArchiveError && /has no archive\.har: profile the page with --archive/.test(e.message) && !e.message.includes('\n'));
    assert.throws(() => readArchive(join(dir, 'nope')), /no such bundle directory/);
    writeFileSync(join(dir, 'archive.har'), '{"log": {}}');
    assert.throws(() => readArchive(dir), /not a HAR file/);
    writeBundle(dir, 'http://h.test:81/', [
      { url: 'http://h.test:81/#top', body: Buffer.from('<p>hi</p>') },
      { url: 'http://h.test:81/b.bin', body: Buffer.from([0, 200, 255]), mimeType: 'application/octet-stream' },
      { url: 'http://h.test:81/gone', body: undefined },
      { url: 'http://h.test:81/c.png', body: Buffer.from([1]), mimeType: 'image/png', fromCache: true },
    ]);
    const a = readArchive(dir);
    assert.equal(a.pageUrl, 'http://h.test:81/');
    assert.equal(a.entries[0]!.url, 'http://h.test:81/');
    assert.deepEqual([...a.entries[1]!.body!], [0, 200, 255]);
    assert.equal(a.entries[2]!.body, undefined);
    assert.deepEqual(a.entries.map((e) => e.fromCache), [undefined, undefined, undefined, true], 'HAR _fromCache read');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
