import { test } from 'node:test';
import assert from 'node:assert/strict';
import { recordedRoundTrip, serverPacing } from './server-pacing.ts';

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
