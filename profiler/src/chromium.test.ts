import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NO_SITE_ISOLATION_SWITCH, chromiumArgs } from './chromium.ts';

test('site isolation stays Chromium\'s own unless turned off, which adds --disable-site-isolation-trials before the extra switches', () => {
  assert.ok(!chromiumArgs({}, '/tmp/p').includes(NO_SITE_ISOLATION_SWITCH));
  assert.ok(!chromiumArgs({ siteIsolation: true }, '/tmp/p').includes(NO_SITE_ISOLATION_SWITCH));
  const off = chromiumArgs({ siteIsolation: false, extraArgs: ['--x'] }, '/tmp/p');
  assert.equal(NO_SITE_ISOLATION_SWITCH, '--disable-site-isolation-trials');
  assert.ok(off.indexOf(NO_SITE_ISOLATION_SWITCH) >= 0 && off.indexOf(NO_SITE_ISOLATION_SWITCH) < off.indexOf('--x'));
  assert.equal(off.at(-1), 'about:blank');
});
