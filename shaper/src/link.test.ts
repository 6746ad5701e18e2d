/**
 * Real namespaces, TUN devices and the delay line (needs root; skipped otherwise): what a link
 * creates, that close() and the owner's death remove all of it, and the error without privileges.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { openShapedLink, ShaperError } from './index.ts';
import { isAlive } from './names.ts';
import type { Link } from './link.ts';

const root = process.getuid?.() === 0;
const HOLD = fileURLToPath(new URL('./testing/hold-link.ts', import.meta.url));
const netnsList = () => execFileSync('ip', ['netns', 'list'], { encoding: 'utf8' });

async function waitUntil(cond: () => boolean, what: string, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) assert.fail(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Starts the hold-link fixture and waits for its {clientNetns, serverNetns, delayLinePid} line. */
async function holdLink(): Promise<{ child: ReturnType<typeof spawn>; info: { clientNetns: string; serverNetns: string; delayLinePid: number } }> {
  const child = spawn(process.execPath, ['--import', 'tsx', HOLD], { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`hold-link exited ${code}`)));
  });
  return { child, info: JSON.parse(line) };
}

test('a link: two namespaces, addresses, lo up on the client side, wrap() runs inside; close() removes it all', { skip: !root && 'needs root' }, async () => {
  const link = (await openShapedLink({ bandwidthBps: 5e6, rttMs: 20, lossRate: 0, seed: 3 })) as Link;
  try {
    assert.equal(link.backend, process.env.PCP_SHAPER_BACKEND || link.backend);
    assert.match(link.clientNetns, new RegExp(`^pcp-${process.pid}-\\d+-c$`));
    assert.match(link.serverNetns, new RegExp(`^pcp-${process.pid}-\\d+-s$`));
    const names = netnsList();
    assert.ok(names.includes(link.clientNetns) && names.includes(link.serverNetns));
    const w = link.wrap('client', 'ip', ['-4', '-o', 'addr']);
    const addrs = execFileSync(w.cmd, w.args, { encoding: 'utf8' });
    assert.match(addrs, /\blo\b.*127\.0\.0\.1/); // loopback is up (Chromium needs it)
    assert.ok(addrs.includes(`inet ${link.clientAddr} peer ${link.serverAddr}/32`), addrs);
    const s = link.wrap('server', 'tc', ['qdisc', 'show', 'dev', 'pcp0']);
    assert.match(execFileSync(s.cmd, s.args, { encoding: 'utf8' }), /tbf 1: root .*rate 5Mbit/);
    const pid = link.delayLine?.pid;
    if (link.backend === 'delay-line') assert.ok(pid && isAlive(pid));
    await link.close();
    await link.close(); // idempotent
    const after = netnsList();
    assert.ok(!after.includes(link.clientNetns) && !after.includes(link.serverNetns), after);
    if (pid) assert.equal(isAlive(pid), false);
  } finally {
    await link.close();
  }
});

test('a bad spec is a one-line ShaperError', async () => {
  await assert.rejects(openShapedLink({ bandwidthBps: -1, rttMs: 40 }), (e: Error) => e instanceof ShaperError && /bandwidth must be/.test(e.message));
  await assert.rejects(openShapedLink({ bandwidthBps: 1e6, rttMs: 40, lossRate: 1.5 }), /loss must be in \[0, 1\)/);
});

test('after SIGKILL of the owner the delay line dies with it and the next open reaps the namespaces', { skip: !root && 'needs root' }, async () => {
  const { child, info } = await holdLink();
  assert.ok(netnsList().includes(info.clientNetns));
  child.kill('SIGKILL');
  await new Promise((r) => child.once('exit', r));
  if (info.delayLinePid) await waitUntil(() => !isAlive(info.delayLinePid), 'the delay line is gone');
  assert.ok(netnsList().includes(info.serverNetns), 'SIGKILL runs no handler: the namespaces are still there');
  const link = await openShapedLink({ bandwidthBps: 1e6, rttMs: 10 });
  try {
    const names = netnsList();
    assert.ok(!names.includes(info.clientNetns) && !names.includes(info.serverNetns), names);
  } finally {
    await link.close();
  }
});

test('SIGTERM of the owner closes its links', { skip: !root && 'needs root' }, async () => {
  const { child, info } = await holdLink();
  child.kill('SIGTERM');
  const [, signal] = await new Promise<[number | null, string | null]>((r) => child.once('exit', (c, s) => r([c, s])));
  assert.equal(signal, 'SIGTERM'); // it still dies of the signal
  const names = netnsList();
  assert.ok(!names.includes(info.clientNetns) && !names.includes(info.serverNetns), names);
  if (info.delayLinePid) await waitUntil(() => !isAlive(info.delayLinePid), 'the delay line is gone'); // SIGKILLed on exit
});

test('without privileges: a one-line ShaperError that says what is missing', { skip: !root && 'needs root to drop them' }, () => {
  const r = spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', '--inh-caps=-all', 'env', 'HOME=/tmp', process.execPath, '--import', 'tsx', HOLD], { encoding: 'utf8' });
  assert.equal(r.status, 1, r.stderr);
  assert.equal(r.stderr.trim(), 'ShaperError: the shaper needs root (missing CAP_NET_ADMIN and CAP_SYS_ADMIN; run as root)');
});
