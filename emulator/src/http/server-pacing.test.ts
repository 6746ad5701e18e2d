import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hostRoundTrips, recordedRoundTrip, serverPacing } from './server-pacing.ts';

test("serverPacing: each gap beyond the recorded round trip is the server's; the pieces the network explains join the step before", () => {
  // r03-parse-chunks' document as recorded: pieces at 12.9, 541.7, 695.4, 843.5 ms; round trip 3 ms.
  const arrivals = [
    { at: 12.9, bytes: 256 },
    { at: 541.7, bytes: 256 },
    { at: 695.4, bytes: 256 },
    { at: 843.5, bytes: 54 },
  ];
  const p = serverPacing(arrivals, 3, 822)!;
  assert.deepEqual(p.upTo, [256, 512, 768, 822]);
  const expected = [0, 525.8, 525.8 + 150.7, 525.8 + 150.7 + 145.1];
  p.after.forEach((a, k) => assert.ok(Math.abs(a - expected[k]!) < 1e-6, `step ${k}: ${a}`));
  // Back-to-back segments (1 ms apart) and a slow-start round (40 ms) on a 40 ms recording: one step.
  assert.equal(serverPacing([{ at: 0, bytes: 1448 }, { at: 1, bytes: 1448 }, { at: 41, bytes: 2896 }], 40, 5792), null);
  // One pause past the round trip splits the body in two steps.
  assert.deepEqual(serverPacing([{ at: 0, bytes: 100 }, { at: 1, bytes: 100 }, { at: 300, bytes: 100 }], 40, 300), { after: [0, 259], upTo: [200, 300] });
  // A body whose size differs from the pieces' sum is scaled to it; the last step is the whole body.
  assert.deepEqual(serverPacing([{ at: 0, bytes: 100 }, { at: 200, bytes: 100 }], 0, 400)!.upTo, [200, 400]);
  assert.equal(serverPacing([{ at: 0, bytes: 10 }], 0, 10), null);
  assert.equal(serverPacing(undefined, 0, 10), null);
});

test('recordedRoundTrip: request on the socket to the first byte, less the server time; 0 when unknown', () => {
  assert.equal(recordedRoundTrip(10, 70, 20), 40);
  assert.equal(recordedRoundTrip(10, 15, 20), 0);
  assert.equal(recordedRoundTrip(undefined, 70, 0), 0);
  assert.equal(recordedRoundTrip(0, undefined, 0), 0);
});

test("hostRoundTrips: each host's least recorded round trip, so a slow exchange's own delays do not pass a trickle off as network", () => {
  // r03-parse-chunks as recorded at load average 30: the document's navigation asked at -131.7 ms and had
  // its first byte at -12.5 (a new connection's handshakes on a starved host), server delay 1.7 -> 117.5 ms;
  // its images 44.8, 2.9 and 3.0 ms. The path is the images' 2.9 ms; another host keeps its own.
  const paths = hostRoundTrips([
    { host: 'a.test:1', requestOnSocket: -131.7 + 3.9, firstByte: -12.5, serverDelay: 1.7 },
    { host: 'a.test:1', requestOnSocket: 140.5, firstByte: 194.5, serverDelay: 9.2 },
    { host: 'a.test:1', requestOnSocket: 288.1, firstByte: 301.3, serverDelay: 10.3 },
    { host: 'a.test:1', requestOnSocket: 456.0, firstByte: 466.6, serverDelay: 7.6 },
    { host: 'b.test:2', requestOnSocket: 10, firstByte: 70, serverDelay: 20 },
    { host: 'b.test:2', requestOnSocket: 10, firstByte: undefined, serverDelay: 0 },
  ]);
  assert.ok(Math.abs(paths.get('a.test:1')! - 2.9) < 1e-9, String(paths.get('a.test:1')));
  assert.equal(paths.get('b.test:2'), 40);
  // With that bound the trickle is the server's: 131.1, 150.0 and 160.8 ms gaps pace 128.2, 147.1, 157.9.
  const p = serverPacing([{ at: 5.9, bytes: 256 }, { at: 137.0, bytes: 256 }, { at: 287.0, bytes: 256 }, { at: 447.8, bytes: 54 }], paths.get('a.test:1')!, 822)!;
  assert.equal(Math.round(p.after.at(-1)!), 433);
});
