import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GOEL_HOSTS, goelConfig, GOEL_RWND_BYTES, lossProfiles } from './profiles.ts';

test("Goel's hosts: Linux 3.13 runs Linux's RTO and its loss recovery; the thesis' hosts keep RFC 6298's", () => {
  const [lossless] = lossProfiles();
  const linux = goelConfig(lossless!, 'h2', 1, GOEL_HOSTS['linux-3.13']);
  assert.equal(linux.linuxRto, true);
  assert.equal(linux.lossDetection, 'sack');
  assert.deepEqual([linux.tlp, linux.earlyRetransmit, linux.fack, linux.frto], [true, true, true, true]);
  assert.equal(linux.receiveWindow, GOEL_RWND_BYTES);
  assert.equal(linux.receiveWindowGrowth, true); // 65 KB at set-up, then Linux 3.13's autotuning (§VI-C)
  const thesis = goelConfig(lossless!, 'h2', 1, GOEL_HOSTS.thesis);
  assert.equal(thesis.linuxRto, undefined);
  assert.equal(thesis.lossDetection, undefined);
});
