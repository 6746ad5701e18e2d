import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadGraph } from '@pcp/graph-builder';
import { parseEmulatorOptions, simulate } from '@pcp/emulator';
import { runWhatIf, whatIfRequest, WhatIfInputError } from './whatif.ts';

const FRIV = fileURLToPath(new URL('../../test/fixtures/www.friv.com.json.gz', import.meta.url));
/** A variable link in Mahimahi's format: 4 opportunities a ms for 50 ms, then 1 a ms for 50 ms (48 and 12 Mbit/s; period 100 ms). */
const TRACE_FILE = fileURLToPath(new URL('../../test/fixtures/alternating.trace', import.meta.url));
const graph = loadGraph(FRIV);

test('KEY=VALUE pairs are read as pcp emulate --option reads them, over the fields', async () => {
  const got = await runWhatIf(graph, { bandwidth: '5mbit', rtt: '40ms', loss: '1%' }, { pairs: ['loss-detection=sack', 'seed=7', 'loss=2%'] });
  const want = simulate(graph, parseEmulatorOptions({ bandwidth: '5mbit', rtt: '40ms', loss: '2%', 'loss-detection': 'sack', seed: '7' }));
  assert.deepEqual(got, want);
  assert.ok(got.losses > 0);
  await assert.rejects(runWhatIf(graph, { bandwidth: '5mbit', rtt: '40ms' }, { pairs: ['bogus=1'] }), (e) => e instanceof WhatIfInputError && /unknown emulator option 'bogus'/.test(e.message));
  await assert.rejects(runWhatIf(graph, { bandwidth: '5mbit', rtt: '40ms' }, { pairs: ['seed'] }), /expects KEY=VALUE/);
  // A pair may not name a file on the server either.
  await assert.rejects(runWhatIf(graph, { bandwidth: '5mbit', rtt: '40ms' }, { pairs: ['uplink-trace=/etc/passwd'] }), /reads a file on the server/);
});

test('a link trace sent by content gives what the same trace file gives pcp emulate', async () => {
  const opts = { bandwidth: '1mbit', rtt: '60ms', protocol: 'h2' };
  const got = await runWhatIf(graph, opts, { traces: { 'downlink-trace': { name: 'alternating.trace', text: readFileSync(TRACE_FILE, 'utf8') } } });
  const want = simulate(graph, parseEmulatorOptions({ ...opts, 'downlink-trace': TRACE_FILE }));
  assert.deepEqual(got, want);
  // The trace matters: the same options without it are another result.
  assert.notEqual(got.loadTime, simulate(graph, parseEmulatorOptions(opts)).loadTime);
  await assert.rejects(runWhatIf(graph, opts, { traces: { 'uplink-trace': { name: 'bad.trace', text: '1\nfast\n' } } }), (e) => e instanceof WhatIfInputError && e.message === "bad.trace:2: not a millisecond timestamp: 'fast'");
});

test("the second path's trace sent by content gives what the same file gives pcp emulate; never a server path", async () => {
  const opts = { bandwidth: '5mbit', rtt: '40ms', protocol: 'h2', path2: '1mbit,60ms' };
  const got = await runWhatIf(graph, opts, { traces: { 'path2-downlink-trace': { name: 'alternating.trace', text: readFileSync(TRACE_FILE, 'utf8') } } });
  const want = simulate(graph, parseEmulatorOptions({ ...opts, 'path2-downlink-trace': TRACE_FILE }));
  assert.deepEqual(got, want);
  assert.notEqual(got.multipath!.bytesPath2, simulate(graph, parseEmulatorOptions(opts)).multipath!.bytesPath2);
  await assert.rejects(runWhatIf(graph, opts, { pairs: ['path2-uplink-trace=/etc/passwd'] }), /reads a file on the server/);
  await assert.rejects(runWhatIf(graph, { bandwidth: '5mbit', rtt: '40ms' }, { traces: { 'path2-uplink-trace': { name: 'a.trace', text: '1\n2\n' } } }), (e) => e instanceof WhatIfInputError && e.message === 'path2-uplink-trace needs a second path (path2)');
});

test('a request body of the wrong shape is a one-line input error', () => {
  assert.deepEqual(whatIfRequest({ graph: 'g', options: { rtt: '8ms', loss: '', n: 3 } }), { graph: 'g', options: { rtt: '8ms' } });
  assert.throws(() => whatIfRequest({ graph: 'g', pairs: 'seed=1' }), /pairs must be a list/);
  assert.throws(() => whatIfRequest({ graph: 'g', traces: { 'downlink-trace': '1\n2' } }), /downlink-trace must be \{name, text\}/);
  assert.throws(() => whatIfRequest({ graph: 'g', traces: { loss: { name: 'x', text: '1' } } }), /'loss' is not a link trace option/);
  assert.throws(() => whatIfRequest(null), /graph must be a graph id/);
});
