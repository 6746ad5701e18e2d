/**
 * profileReplay on loopback: the recording's server delays are served (real replay server, real Chromium).
 * A parametric page whose document the records hold 3,000 ms: the traced load's document waits at least that.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { profileReplay } from './replay-profile.ts';

const PCP = fileURLToPath(new URL('../bin/pcp.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'pcp-replay-profile-'));
after(() => rmSync(dir, { recursive: true, force: true }));

type Entry = { method: string; params: { requestId?: string; type?: string; response?: { url: string; timing?: { sendEnd: number; receiveHeadersEnd: number } } } };

/** The document's wait for its response headers in the traced load (DevTools' timing: send end to headers). */
function documentWaitMs(bundle: string): number {
  const log = JSON.parse(readFileSync(join(bundle, 'devtools.log.json'), 'utf8')) as Entry[];
  const doc = log.find((e) => e.method === 'Network.responseReceived' && e.params.type === 'Document');
  const t = doc?.params.response?.timing;
  assert.ok(t, 'the document has a response with timing');
  return t.receiveHeadersEnd - t.sendEnd;
}

test('a loopback replay serves the records\' server delays', { timeout: 120_000 }, async () => {
  const site = join(dir, 'site');
  const r = spawnSync(process.execPath, [PCP, 'synthesize', '--objects', '2', '--out', site], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const page = (JSON.parse(readFileSync(join(site, 'meta.json'), 'utf8')) as { url: string }).url;
  const held = await profileReplay(site, join(dir, 'held'), { records: [{ method: 'GET', url: page, delayMs: 3000 }], timeoutMs: 60_000 });
  assert.equal(held.meta.status, 'complete');
  // A delay only lengthens the wait: a loaded machine cannot make it shorter than the record.
  const heldMs = documentWaitMs(join(dir, 'held'));
  assert.ok(heldMs >= 2950, `document waited ${heldMs} ms`);
  // Without records the same site answers on loopback at once (3 s is far above any machine's load).
  const none = await profileReplay(site, join(dir, 'none'), { records: [], timeoutMs: 60_000 });
  assert.equal(none.meta.status, 'complete');
  const noneMs = documentWaitMs(join(dir, 'none'));
  assert.ok(noneMs < 2950, `document waited ${noneMs} ms without records`);
});
