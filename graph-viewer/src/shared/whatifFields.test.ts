import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EMULATOR_OPTIONS, parseEmulatorOptions, type EmulatorOption } from '@pcp/emulator';
import { OPTION_ALIASES, WHATIF_FIELDS, WHATIF_GROUPS, splitOptionPairs } from './whatifFields.ts';

const BASE = { bandwidth: '10mbit', rtt: '80ms' };

test('every option pcp emulate takes is a field of the panel, once (aliases through the option they name)', () => {
  const keys = WHATIF_FIELDS.map((f) => f.key);
  assert.equal(new Set(keys).size, keys.length, 'no option twice');
  for (const k of Object.keys(EMULATOR_OPTIONS) as EmulatorOption[]) {
    const alias = OPTION_ALIASES[k];
    assert.ok(keys.includes(alias ?? k), `${k} has a field${alias ? ` (as ${alias})` : ''}`);
    if (alias) assert.ok(!keys.includes(k), `${k} is shown once, as ${alias}`);
  }
  for (const f of WHATIF_FIELDS) assert.ok(Object.hasOwn(EMULATOR_OPTIONS, f.key), `${f.key} is an emulator option`);
  // What the brief's groups hold: the loss options together, the multipath switches together.
  const group = (k: EmulatorOption): string | undefined => WHATIF_FIELDS.find((f) => f.key === k)?.group;
  for (const k of ['loss', 'loss-model', 'uplink-loss-model', 'loss-detection', 'tlp'] as const) assert.equal(group(k), 'loss', k);
  for (const k of ['path2', 'path2-loss-model', 'path2-uplink-loss-model', 'path2-latency-spikes', 'path2-downlink-trace', 'path2-uplink-trace', 'mptcp-scheduler', 'mptcp-cc', 'mptcp-lookahead', 'mptcp-rcvbuf'] as const) assert.equal(group(k), 'multipath', k);
  for (const k of ['bandwidth', 'rtt', 'downlink-trace', 'uplink-trace'] as const) assert.equal(group(k), 'network', k);
  for (const f of WHATIF_FIELDS) assert.ok((WHATIF_GROUPS as readonly string[]).includes(f.group));
});

test('the panel offers only words the emulator accepts: every choice and both starting sets parse', () => {
  // The lists of choices (switches are true/false, checked below: a switch may need another option to be valid).
  for (const f of WHATIF_FIELDS.filter((x) => EMULATOR_OPTIONS[x.key] !== 'switch')) {
    for (const c of f.choices ?? []) {
      if (c === '') continue;
      // An out-of-order server needs a multiplexed protocol; everything else stands alone.
      const base = f.key === 'server' ? { ...BASE, protocol: 'h2' } : BASE;
      assert.doesNotThrow(() => parseEmulatorOptions({ ...base, [f.key]: c }), `${f.key}=${c}`);
    }
  }
  for (const k of [0, 1]) {
    const set = Object.fromEntries(WHATIF_FIELDS.filter((f) => (f.value?.[k] ?? '') !== '').map((f) => [f.key, f.value![k]!]));
    assert.ok(set.bandwidth && set.rtt, 'both sets start with a link');
    assert.doesNotThrow(() => parseEmulatorOptions(set), JSON.stringify(set));
  }
  // Switches offer the emulator's default, on and off.
  for (const f of WHATIF_FIELDS.filter((x) => EMULATOR_OPTIONS[x.key] === 'switch')) assert.deepEqual(f.choices, ['', 'true', 'false'], f.key);
  assert.deepEqual(WHATIF_FIELDS.find((f) => f.key === 'loss-detection')?.choices, ['', 'nack', 'sack']);
  assert.deepEqual(WHATIF_FIELDS.filter((f) => f.input === 'file').map((f) => f.key), ['downlink-trace', 'uplink-trace', 'path2-downlink-trace', 'path2-uplink-trace']);
});

test('the other-options box: one KEY=VALUE per word', () => {
  assert.deepEqual(splitOptionPairs(''), []);
  assert.deepEqual(splitOptionPairs('  seed=3\n  browser-delays=false   extra-rtt=a.com=10ms,b.com=5ms \n'), ['seed=3', 'browser-delays=false', 'extra-rtt=a.com=10ms,b.com=5ms']);
});
