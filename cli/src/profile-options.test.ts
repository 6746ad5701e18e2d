import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from './kit.ts';
import { NO_RENDERER_HOLDS_ARGS, PROFILE_OPTIONS, captureOptions, profileArgs } from './profile-options.ts';

test('--no-preload-scanner turns Blink preload scanning off in the Chromium it starts, and passes on to child commands', () => {
  const p = parse(['--no-preload-scanner'], PROFILE_OPTIONS);
  assert.deepEqual(captureOptions(p).chromiumArgs, ['--blink-settings=doHtmlPreloadScanning=false']);
  assert.deepEqual(profileArgs(p), ['--no-preload-scanner']);
  assert.equal(captureOptions(parse([], PROFILE_OPTIONS)).chromiumArgs, undefined);
});

test('focus emulation is on unless --no-focus-emulation, which passes on to child commands', () => {
  assert.equal(captureOptions(parse([], PROFILE_OPTIONS)).focusEmulation, true);
  const p = parse(['--no-focus-emulation'], PROFILE_OPTIONS);
  assert.equal(captureOptions(p).focusEmulation, false);
  assert.deepEqual(profileArgs(p), ['--no-focus-emulation']);
});

test('--no-renderer-holds raises the tight mode limit of Blink\'s resource load scheduler to the normal one, beside --no-preload-scanner, and passes on to child commands', () => {
  const p = parse(['--no-renderer-holds'], PROFILE_OPTIONS);
  assert.deepEqual(captureOptions(p).chromiumArgs, [
    '--force-fieldtrials=RendererSideResourceScheduler/NoTightMode',
    '--force-fieldtrial-params=RendererSideResourceScheduler.NoTightMode:tight_limit/1024',
  ]);
  assert.deepEqual(profileArgs(p), ['--no-renderer-holds']);
  const both = parse(['--no-preload-scanner', '--no-renderer-holds'], PROFILE_OPTIONS);
  assert.deepEqual(captureOptions(both).chromiumArgs, ['--blink-settings=doHtmlPreloadScanning=false', ...NO_RENDERER_HOLDS_ARGS]);
});

test('site isolation is not asked for unless --no-site-isolation or --site-isolation, which pass on to child commands and exclude each other', () => {
  assert.equal(captureOptions(parse([], PROFILE_OPTIONS)).siteIsolation, undefined);
  const off = parse(['--no-site-isolation'], PROFILE_OPTIONS);
  assert.equal(captureOptions(off).siteIsolation, false);
  assert.deepEqual(profileArgs(off), ['--no-site-isolation']);
  assert.equal(captureOptions(parse(['--site-isolation'], PROFILE_OPTIONS)).siteIsolation, true);
  assert.throws(() => captureOptions(parse(['--site-isolation', '--no-site-isolation'], PROFILE_OPTIONS)), /exclude each other/);
});
