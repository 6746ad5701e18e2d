/**
 * pcp delays end to end through the real CLI entry point and the Python package, on a capture the
 * Python test kit writes (server-delays/tests/pcapkit.py): one keep-alive connection where /a.css is
 * ACKed at 11 ms and answered at 51 ms (40 ms), /b.css ACKed at 61 and answered at 86 (25 ms).
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PCP = fileURLToPath(new URL('../../bin/pcp.js', import.meta.url));
const KIT = fileURLToPath(new URL('../../../server-delays/tests', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'pcp-delays-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const pcap = join(dir, 'k.pcap');
execFileSync(process.env['PYTHON'] ?? 'python3', ['-c', `
import sys; sys.path.insert(0, ${JSON.stringify(KIT)})
from pcapkit import Conversation, get, ok, write
c = Conversation().handshake(0, 2)
c.send(10, "c", get("/a.css")).ack(11, "s").send(51, "s", ok(b"a" * 500)).ack(52, "c")
c.send(60, "c", get("/b.css")).ack(61, "s").send(86, "s", ok(b"b" * 300)).ack(87, "c")
write(${JSON.stringify(pcap)}, c.packets)
`]);

interface Out { records: Array<{ url: string; delayMs: number; estimated: boolean; mimeType: string; tls: boolean }> }

test('pcp delays writes JSON records, the legacy TSV and CDFs', () => {
  const out = join(dir, 'd.json');
  execFileSync('node', [PCP, 'delays', pcap, '--out', out, '--cdf', join(dir, 'cdf')], { stdio: 'pipe' });
  const doc = JSON.parse(readFileSync(out, 'utf8')) as Out;
  assert.deepEqual(doc.records.map((r) => [r.url, r.delayMs, r.estimated, r.mimeType, r.tls]), [
    ['http://example.org/a.css', 40, false, 'text/css', false],
    ['http://example.org/b.css', 25, false, 'text/css', false],
  ]);
  // Two CSS delays, 25 and 40 ms: (min, 0), then each with its cumulative probability.
  assert.equal(readFileSync(join(dir, 'cdf', 'CSSDelaysCDF.dist'), 'utf8'), '0.025 0\n0.025 0.5\n0.04 1');
  const tsv = join(dir, 'd.tsv');
  execFileSync('node', [PCP, 'delays', pcap, '--out', tsv, '--format', 'tsv'], { stdio: 'pipe' });
  assert.deepEqual(readFileSync(tsv, 'utf8').split('\n').slice(0, 2), [
    'method hostname url size time mimetype exttype cached',
    'GET example.org example.org/a.css 500 0.040000 text/css css 0',
  ]);
});

test('pcp delays fails with one line on bad options and bad files', () => {
  const noOut = spawnSync('node', [PCP, 'delays', pcap], { encoding: 'utf8' });
  assert.equal(noOut.status, 2);
  assert.match(noOut.stderr, /--out is required/);
  const missing = spawnSync('node', [PCP, 'delays', join(dir, 'nope.pcap'), '--out', join(dir, 'x.json')], { encoding: 'utf8' });
  assert.equal(missing.status, 1);
  assert.match(missing.stderr, /does not exist/);
  const junk = join(dir, 'junk.pcap');
  writeFileSync(junk, 'not a capture');
  const bad = spawnSync('node', [PCP, 'delays', junk, '--out', join(dir, 'y.json')], { encoding: 'utf8' });
  assert.equal(bad.status, 1);
  assert.match(bad.stderr, /not a pcap or pcapng file/);
  assert.doesNotMatch(bad.stderr, /Traceback/);
  assert.equal(bad.stderr.trim().split('\n').filter((l) => !l.startsWith('npm ')).length, 1);
  assert.equal(existsSync(join(dir, 'y.json')), false);
  const help = spawnSync('node', [PCP, 'delays', '--help'], { encoding: 'utf8' });
  assert.equal(help.status, 0);
  assert.match(help.stdout, /pcp delays BUNDLE_DIR --out FILE/);
});
