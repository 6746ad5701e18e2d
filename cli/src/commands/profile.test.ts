/** `pcp profile` argument handling: one-line usage errors and failures, before any browser starts. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { command } from './profile.ts';
import { CliError, UsageError } from '../kit.ts';

test('usage errors and a missing browser are one-line failures', async () => {
  await assert.rejects(command.run(['http://a.test/']), (e: Error) => e instanceof UsageError && /--out/.test(e.message));
  await assert.rejects(command.run(['--out', '/tmp/x']), (e: Error) => e instanceof UsageError && /at least one URL/.test(e.message));
  await assert.rejects(command.run(['ftp://a.test/', '--out', '/tmp/x']), (e: Error) => e instanceof UsageError && /not an http/.test(e.message));
  await assert.rejects(command.run(['http://a.test/', '--out', '/tmp/x', '--viewport', 'big']), (e: Error) => e instanceof UsageError && /WxH/.test(e.message));
  await assert.rejects(command.run(['http://a.test/', '--out', '/tmp/x', '--concurrency', '0']), UsageError);
  await assert.rejects(command.run(['http://a.test/', '--out', '/tmp/x', '--chromium', '/nonexistent/chromium']), (e: Error) => e instanceof CliError && /not found/.test(e.message));
  await assert.rejects(command.run(['--list', '/nonexistent/list.txt', '--out', '/tmp/x']), (e: Error) => e instanceof CliError && /cannot read/.test(e.message));
  await assert.rejects(command.run(['http://a.test/', '--out', '/tmp/x', '--timer-cap=-5']), (e: Error) => e instanceof UsageError && /--timer-cap expects a time in ms >= 0/.test(e.message));
  await assert.rejects(command.run(['http://a.test/', '--out', '/tmp/x', '--timer-horizon', 'soon']), (e: Error) => e instanceof UsageError && /--timer-horizon expects a number/.test(e.message));
  assert.match(command.usage, /--pcap/);
  assert.match(command.usage, /--timer-horizon MS/);
});

test('--replay: usage errors, and a bundle without an archive is a one-line failure', async () => {
  await assert.rejects(command.run(['--replay', '/tmp/x', 'http://a.test/', '--out', '/tmp/y']), (e: Error) => e instanceof UsageError && /--replay takes no URL/.test(e.message));
  await assert.rejects(command.run(['http://a.test/', '--pace', '--out', '/tmp/y']), (e: Error) => e instanceof UsageError && /--pace goes with --replay/.test(e.message));
  await assert.rejects(command.run(['http://a.test/', '--no-cache-warm-up', '--out', '/tmp/y']), (e: Error) => e instanceof UsageError && /--no-cache-warm-up goes with --replay/.test(e.message));
  await assert.rejects(command.run(['--replay', '/nonexistent/bundle', '--out', '/tmp/y']), (e: Error) => e instanceof CliError && /no such bundle directory/.test(e.message));
});
