import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NO_GAIA_ISOLATION_SWITCH, NO_SITE_ISOLATION_SWITCH, chromiumArgs } from './chromium.ts';

test('site isolation stays Chromium\'s own unless turned off, which adds --disable-site-isolation-trials and moves the Gaia origin off accounts.google.com, before the extra switches', () => {
  assert.ok(!chromiumArgs({}, '/tmp/p').includes(NO_SITE_ISOLATION_SWITCH));
  assert.ok(!chromiumArgs({ siteIsolation: true }, '/tmp/p').includes(NO_SITE_ISOLATION_SWITCH));
  const off = chromiumArgs({ siteIsolation: false, extraArgs: ['--x'] }, '/tmp/p');
  assert.equal(NO_SITE_ISOLATION_SWITCH, '--disable-site-isolation-trials');
  assert.ok(off.indexOf(NO_SITE_ISOLATION_SWITCH) >= 0 && off.indexOf(NO_SITE_ISOLATION_SWITCH) < off.indexOf('--x'));
  assert.ok(off.includes(NO_GAIA_ISOLATION_SWITCH) && !chromiumArgs({}, '/tmp/p').some((a) => a.startsWith('--gaia-url')));
  assert.ok(!new URL(NO_GAIA_ISOLATION_SWITCH.split('=')[1]!).hostname.endsWith('google.com'));
  assert.equal(off.at(-1), 'about:blank');
});
