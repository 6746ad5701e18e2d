/**
 * Lantern on a real bundle: fixtures/example-site is `pcp profile` of profiler/example-site (two
 * origins, an iframe, server delays, an XHR after load) in Chromium 156 on loopback. Structural facts
 * only: no expected times are written down, they are whatever Lantern computes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { loadLanternTrace, predictLantern, simulateLantern, type LanternTrace } from './predict.ts';
import { TraceEngineError } from './trace-engine.ts';

const BUNDLE = fileURLToPath(new URL('./fixtures/example-site/', import.meta.url));
const trace = JSON.parse(gunzipSync(readFileSync(BUNDLE + 'trace.json.gz')).toString('utf8')) as { traceEvents: Array<{ name: string; ts: number; args?: { data?: { requestId?: string; documentLoaderURL?: string; isOutermostMainFrame?: boolean } } }> };
const kbps = (bitPerS: number): number => bitPerS / 1024;

let prepared: Promise<LanternTrace> | undefined;
const lantern = (): Promise<LanternTrace> => (prepared ??= loadLanternTrace(trace));

test('every request of the recorded navigation is a node of Lantern\'s graph', async () => {
  const nav = trace.traceEvents.find((e) => e.name === 'navigationStart' && e.args?.data?.isOutermostMainFrame && e.args.data.documentLoaderURL?.startsWith('http'))!;
  const ids = new Set(trace.traceEvents.filter((e) => e.name === 'ResourceSendRequest' && e.ts >= nav.ts).map((e) => e.args!.data!.requestId));
  const lt = await lantern();
  const p = simulateLantern(lt, { rttMs: 40, throughputKbps: kbps(5e6), cpuMultiplier: 1 });
  assert.ok(ids.size >= 10, `the example site makes its ~13 requests (trace has ${ids.size})`);
  assert.equal(lt.requestCount, ids.size);
  assert.equal(p.details.networkNodes, ids.size);
  assert.ok(p.details.cpuNodes > 0, 'main-thread tasks are in the graph');
  assert.equal(p.details.url, nav.args!.data!.documentLoaderURL);
});

test('slower networks predict later loads; DCL <= load <= whole graph; the recording\'s markers are reported', async () => {
  const lt = await lantern();
  const slow = simulateLantern(lt, { rttMs: 150, throughputKbps: kbps(1.6e6), cpuMultiplier: 1 });
  const mid = simulateLantern(lt, { rttMs: 40, throughputKbps: kbps(5e6), cpuMultiplier: 1 });
  const fast = simulateLantern(lt, { rttMs: 20, throughputKbps: kbps(50e6), cpuMultiplier: 1 });
  for (const p of [slow, mid, fast]) {
    assert.ok(p.domContentLoadedTime > 0 && p.domContentLoadedTime <= p.loadTime, `0 < DCL ${p.domContentLoadedTime} <= load ${p.loadTime}`);
    assert.ok(p.loadTime <= p.details.wholeGraphMs + 1e-9, 'load is within the simulated graph');
    assert.ok(p.fcp !== undefined && p.fcp > 0, 'FCP from Lantern\'s metric');
    assert.ok(p.details.nodesBeforeLoad >= p.details.nodesBeforeDomContentLoaded);
    const r = p.details.recorded;
    assert.ok(r.domContentLoadedTime! > 0 && r.domContentLoadedTime! < r.loadTime! && r.fcp! > 0, 'recorded FCP, DCL < load');
  }
  assert.ok(slow.loadTime > mid.loadTime && mid.loadTime > fast.loadTime, `load ${slow.loadTime} > ${mid.loadTime} > ${fast.loadTime}`);
  assert.ok(slow.domContentLoadedTime > fast.domContentLoadedTime);
  assert.ok(slow.fcp! > fast.fcp!);
  // 1.6 Mbit/s moves the page's bytes at least 30x slower than 50 Mbit/s and each round trip is 7.5x
  // longer: the slow load must be several times the fast one, whatever the details of the model.
  assert.ok(slow.loadTime > 3 * fast.loadTime);
});

test('DNS: Lantern charges rttMultiplier RTTs per host; --no-dns removes exactly that, and restores the default', async () => {
  const lt = await lantern();
  const { TraceEngine } = await import('./trace-engine.ts');
  const before = TraceEngine.Lantern.Simulation.DNSCache.rttMultiplier;
  const withDns = simulateLantern(lt, { rttMs: 100, throughputKbps: kbps(10e6), cpuMultiplier: 1 });
  const noDns = simulateLantern(lt, { rttMs: 100, throughputKbps: kbps(10e6), cpuMultiplier: 1, dns: false });
  assert.equal(TraceEngine.Lantern.Simulation.DNSCache.rttMultiplier, before, 'the global default is restored');
  assert.equal(withDns.details.dnsRttMultiplier, before);
  assert.equal(noDns.details.dnsRttMultiplier, 0);
  // The document's own lookup alone is rttMultiplier x RTT on the critical path.
  assert.ok(withDns.loadTime - noDns.loadTime >= before * 100 - 1e-6, `with DNS ${withDns.loadTime}, without ${noDns.loadTime}`);
  assert.ok(withDns.fcp! - noDns.fcp! >= before * 100 - 1e-6);
  // Deterministic: the same conditions give the same answer.
  assert.deepEqual(simulateLantern(lt, { rttMs: 100, throughputKbps: kbps(10e6), cpuMultiplier: 1 }), withDns);
});

test('a slower CPU never makes the page faster', async () => {
  const lt = await lantern();
  const x1 = simulateLantern(lt, { rttMs: 40, throughputKbps: kbps(5e6), cpuMultiplier: 1 });
  const x4 = simulateLantern(lt, { rttMs: 40, throughputKbps: kbps(5e6), cpuMultiplier: 4 });
  assert.ok(x4.loadTime >= x1.loadTime && x4.domContentLoadedTime >= x1.domContentLoadedTime);
});

test('predictLantern in one call equals load + simulate', async () => {
  const opts = { rttMs: 40, throughputKbps: kbps(5e6), cpuMultiplier: 1 };
  assert.deepEqual(await predictLantern(trace, opts), simulateLantern(await lantern(), opts));
});

test('bad input: clear errors', async () => {
  await assert.rejects(predictLantern({ nope: 1 }, { rttMs: 40, throughputKbps: 1000, cpuMultiplier: 1 }), (e: Error) => e instanceof TraceEngineError && /no traceEvents/.test(e.message));
  // A trace started from the browser target, as the profiler did before: TracingStartedInBrowser without its frame list.
  const frameless = trace.traceEvents.map((e) => (e.name === 'TracingStartedInBrowser' ? { ...e, args: {} } : e));
  await assert.rejects(predictLantern(frameless, { rttMs: 40, throughputKbps: 1000, cpuMultiplier: 1 }), (e: Error) => e instanceof TraceEngineError && /No frames found/.test(e.message));
  const lt = await lantern();
  assert.throws(() => simulateLantern(lt, { rttMs: 40, throughputKbps: 0, cpuMultiplier: 1 }), RangeError);
});
