/**
 * Writes the two link traces shipped in emulator/traces/ (Mahimahi format, see traces/README.md):
 * - const-12mbit.trace: one 1500-byte opportunity every ms for 100 ms, looping: exactly 12 Mbit/s;
 * - cellular-variable.trace: 20 s of a cellular-like downlink, seeded: the rate is redrawn every 100 ms by a
 *   random walk over 0.5-24 Mbit/s (mean about 8), with a 300-600 ms outage (no opportunities) about every 4 s.
 * `node --import tsx emulator/scripts/make-traces.ts` regenerates them identically.
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Rng } from '../src/rng.ts';

const dir = join(dirname(fileURLToPath(import.meta.url)), '..', 'traces');

function constant(): string {
  const lines: number[] = [];
  for (let t = 1; t <= 100; t++) lines.push(t);
  return lines.join('\n') + '\n';
}

function cellular(): string {
  const rng = new Rng(2017, 1);
  const PERIOD = 20_000;
  const SLOT = 100;
  let mbit = 8;
  let outageUntil = -1;
  const lines: number[] = [];
  let credit = 0; // fractional packets carried over between ms
  for (let slot = 0; slot < PERIOD / SLOT; slot++) {
    mbit = Math.min(24, Math.max(0.5, mbit * Math.exp((rng.next() - 0.5) * 0.6)));
    const start = slot * SLOT;
    if (outageUntil < start && rng.next() < SLOT / 4000) outageUntil = start + 300 + Math.floor(rng.next() * 300);
    for (let ms = start + 1; ms <= start + SLOT; ms++) {
      if (ms <= outageUntil) continue;
      credit += (mbit * 1e6) / 8 / 1000 / 1500; // packets per ms
      while (credit >= 1) {
        lines.push(ms);
        credit -= 1;
      }
    }
  }
  if (lines[lines.length - 1] !== PERIOD) lines.push(PERIOD); // the period is the last timestamp
  return lines.join('\n') + '\n';
}

writeFileSync(join(dir, 'const-12mbit.trace'), constant());
writeFileSync(join(dir, 'cellular-variable.trace'), cellular());
console.log(`wrote ${join(dir, 'const-12mbit.trace')} and ${join(dir, 'cellular-variable.trace')}`);
