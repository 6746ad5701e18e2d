import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { LegacyLogError, linesOf, readRecords } from './reader.ts';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeLegacyLog, streamLegacyLogLines } from './file.ts';
import { legacyLogToActivities } from './index.ts';
import { SNIPPET_LINES } from '../../../test/snippet.ts';

/** Every directory a test makes lies in here, removed when the file's tests end. */
const scratch = mkdtempSync(join(tmpdir(), 'pcp-stream-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

const read = (lines: string[], strict = false) => {
  const warnings: string[] = [];
  const records = [...readRecords(lines, warnings, { strict })];
  return { records, warnings };
};

test('reader: good records pass with their line numbers; blank lines are skipped', () => {
  const { records, warnings } = read(['{"page": "http://x/"}', '', '{"DOMLoad": 1.5}']);
  assert.deepEqual(records.map((r) => [r.kind, r.line]), [['page', 1], ['DOMLoad', 3]]);
  assert.deepEqual(warnings, []);
});

test('reader: corrupt JSON, unknown kind, missing and mistyped fields are skipped with a warning naming the line', () => {
  const { records, warnings } = read([
    '{"page": "http://x/"}',
    '{"Resource": {"id": 1, "url": "http://x/"', // cut mid-record
    '{"Banana": {}}',
    '{"ReceivedChunk": {"resourceId": 1, "len": 10}}', // no receivedTime
    '{"ReceivedChunk": {"resourceId": 1, "receivedTime": "soon", "len": 10}}',
    '{"page": "a", "DOMLoad": 1}',
  ]);
  assert.equal(records.length, 1);
  assert.match(warnings[0]!, /^line 2: not valid JSON/);
  assert.match(warnings[1]!, /^line 3: unknown record kind 'Banana'/);
  assert.match(warnings[2]!, /^line 4: ReceivedChunk record lacks field 'receivedTime'/);
  assert.match(warnings[3]!, /^line 5: ReceivedChunk field 'receivedTime' must be a number/);
  assert.match(warnings[4]!, /^line 6: expected exactly one record kind per line, found 2/);
});

test('reader: strict mode stops at the first bad line with an error naming it', () => {
  assert.throws(() => read(['{"page": "x"}', '{"Nope": 1}'], true), (e: unknown) => e instanceof LegacyLogError && /^line 2: unknown record kind 'Nope'/.test(e.message));
});

test('linesOf splits LF and CRLF text without a trailing empty line', () => {
  assert.deepEqual([...linesOf('a\r\nb\nc\n')], ['a', 'b', 'c']);
});

test('file: a truncated gzip keeps the complete lines before the cut and warns', () => {
  const text = SNIPPET_LINES.join('\n') + '\n';
  const gz = gzipSync(Buffer.from(text));
  const cut = decodeLegacyLog(gz.subarray(0, Math.floor(gz.length * 0.7)));
  assert.match(cut.warnings[0]!, /gzip stream is truncated: kept the \d+ complete line\(s\)/);
  const kept = cut.text.split('\n').filter(Boolean);
  assert.ok(kept.length > 0 && kept.length < SNIPPET_LINES.length);
  assert.deepEqual(kept, SNIPPET_LINES.slice(0, kept.length)); // nothing garbled, only the tail lost
  assert.equal(decodeLegacyLog(gz).text, text);
  assert.equal(decodeLegacyLog(Buffer.from(text)).text, text); // plain text passes through
});

test('handlers -> model: pointers resolve into causes; the repeated cache hit is merged', () => {
  const warnings: string[] = [];
  const acts = legacyLogToActivities(SNIPPET_LINES, warnings);
  assert.deepEqual(acts.resources.map((r) => r.url), ['http://t.test/', 'http://t.test/a.js', 'http://t.test/b.png', 'http://t.test/c.png']);
  assert.deepEqual(warnings, []); // the cache hit repeating c.png's fetch is merged silently: no 5th resource
  const [, a, b, c] = acts.resources;
  assert.deepEqual(a!.issuedBy, { kind: 'token', doc: 'doc_0', token: 2 }); // the </script> token
  assert.equal(b!.issuedBy.kind, 'computation');
  assert.deepEqual(c!.issuedBy, { kind: 'token', doc: 'doc_0', token: 3 });
  const script = acts.computations[0]!;
  assert.equal(script.kind, 'ScriptEval');
  assert.equal(script.source, 'download_1');
  assert.equal(script.blocksParser, true);
  assert.equal(acts.frames[0]!.document, 'download_0');
});

test('handlers -> model: no Resource at all is a clear error, not a crash', () => {
  assert.throws(() => legacyLogToActivities(['{"page": "http://x/"}'], []), /no Resource record/);
});

async function collect(path: string, warnings: string[]): Promise<string[]> {
  const out: string[] = [];
  for await (const l of streamLegacyLogLines(path, warnings)) out.push(l);
  return out;
}

test('file: streamed lines of plain and gzip logs equal the lines of the text', async () => {
  const dir = mkdtempSync(join(scratch, 'd-'));
  const text = SNIPPET_LINES.join('\n') + '\n';
  writeFileSync(join(dir, 'a.log'), text);
  writeFileSync(join(dir, 'a.log.gz'), gzipSync(Buffer.from(text)));
  for (const f of ['a.log', 'a.log.gz']) {
    const warnings: string[] = [];
    assert.deepEqual(await collect(join(dir, f), warnings), SNIPPET_LINES);
    assert.deepEqual(warnings, []);
  }
});

test('file: a truncated gzip stream keeps the lines before the cut and warns', async () => {
  const dir = mkdtempSync(join(scratch, 'd-'));
  const gz = gzipSync(Buffer.from(SNIPPET_LINES.join('\n') + '\n'));
  writeFileSync(join(dir, 'cut.log.gz'), gz.subarray(0, Math.floor(gz.length * 0.7)));
  const warnings: string[] = [];
  const lines = await collect(join(dir, 'cut.log.gz'), warnings);
  assert.ok(lines.length > 0 && lines.length < SNIPPET_LINES.length);
  assert.deepEqual(lines, SNIPPET_LINES.slice(0, lines.length)); // whole lines only, in order
  assert.match(warnings[0]!, /^gzip stream is truncated or corrupt \(.+\): kept the \d+ line\(s\) before the cut/);
});
