/**
 * Goel et al. 2017's lossy cellular conditions as emulator options. §VI-A classifies connections by network
 * quality (Good / Fair / Passable / Poor), §VI-B by the time between retransmission clusters: Good (median
 * 1.15 s), Median (350 ms), Poor (165 ms). Each is its testbed
 * (testbed.ts): a link whose rate, RTT and loss change every 70 ms on both directions, the loss slices'
 * probability scaled by the calibration (calibrate.ts). Two references on a constant 5 Mbit/s, 70 ms link:
 * no loss, and netem-style random 1% loss (the emulation Goel argues is unrealistic).
 */
import type { EmulatorConfig } from '../../src/index.ts';
import { baseRttMs, familyProfiles, testbedSchedule, type ProfileFamily, type BridgeOptions, type TestbedOptions, type TestbedProfile } from './testbed.ts';

/** The references' link: the median RTT the paper states (§IV), a rate near its Fig. 19 h1 goodput. */
export const REFERENCE_RATE_BPS = 5e6;
export const REFERENCE_RTT_MS = 70;

export interface LossProfile {
  name: string;
  what: string;
  /** A testbed profile (Good, Median, Poor); the references have none. */
  testbed?: TestbedProfile;
  /** The link options of the run with this seed. */
  link(seed: number): Partial<EmulatorConfig>;
}

const reference = (name: string, what: string, link: Partial<EmulatorConfig>): LossProfile => ({
  name,
  what,
  link: () => ({ bandwidthBps: REFERENCE_RATE_BPS, rttMs: REFERENCE_RTT_MS, ...link }),
});

/** A testbed profile (its loss slices scaled, the bucket refilled or not, re-ordering or not); schedules are built once per seed. */
export function testbedProfile(p: TestbedProfile, opts: TestbedOptions = {}): LossProfile {
  const schedules = new Map<number, EmulatorConfig['linkSchedule']>();
  return {
    name: p.name,
    what: `Goel's bridge, loss x${opts.lossScale ?? 1}${opts.refill === false ? ', no refill' : ''}${opts.reorder === false ? ', no re-ordering' : ''}${opts.order === 'script' ? ", the script's walk" : ''}${opts.watchdogWake === false ? ', every refill wakes the queue' : ''}${opts.netemPair === true ? ", netem's wake-ups (3.13's pair)" : ''}`,
    testbed: p,
    link: (seed) => {
      let s = schedules.get(seed);
      if (!s) schedules.set(seed, (s = testbedSchedule(p, seed, opts)));
      // bandwidthBps goes unused: the schedule carries the rate and the queue.
      return { bandwidthBps: REFERENCE_RATE_BPS, rttMs: baseRttMs(p), queue: 'droptail', linkSchedule: s };
    },
  };
}

export const REFERENCE_PROFILES: readonly LossProfile[] = [
  reference('lossless', 'no loss, 5 Mbit/s, 70 ms', {}),
  reference('random-1%', 'Bernoulli 1%, 5 Mbit/s, 70 ms', { lossRate: 0.01 }),
];

/** The references and a family's testbed profiles with the given loss scale per profile name (default 1: the paper's rates as netem's loss). */
export function lossProfiles(scales: Partial<Record<string, number>> = {}, bridge: BridgeOptions = {}, family: ProfileFamily = 'frequency'): LossProfile[] {
  return [...REFERENCE_PROFILES, ...familyProfiles(family).map((p) => testbedProfile(p, { ...bridge, lossScale: scales[p.name] ?? 1 }))];
}

/**
 * Goel's hosts' loss recovery (Ubuntu 14.04, Linux 3.13): SACK-based detection with FACK, tail-loss probes
 * (3.10+), early retransmit (3.5+), F-RTO, and Linux's RTO (3.13's tcp_rtt_estimator keeps mdev_max, so
 * rttvar, at least tcp_rto_min = 200 ms and tcp_set_rto takes SRTT + rttvar: `linuxRto`):
 * `emulate:goel`'s default (`--hosts linux-3.13`; emulator/README.md says why).
 */
export const LINUX_3_13_HOSTS: Partial<EmulatorConfig> = { lossDetection: 'sack', tlp: true, earlyRetransmit: true, fack: true, frto: true, linuxRto: true };

/** The hosts `emulate:goel` can run: Goel's (Linux 3.13; the default) or the thesis' (its NACK scheme, no probe). */
export const GOEL_HOSTS: Readonly<Record<string, Partial<EmulatorConfig>>> = { 'linux-3.13': LINUX_3_13_HOSTS, thesis: {} };

/** The receive window Goel's client and server advertised at connection set-up (§VI-C: 65 KB). */
export const GOEL_RWND_BYTES = 65_535;

/**
 * The emulator configuration of one run: Goel's testbed hosts (TLS, icwnd 10, CUBIC, delayed ACKs, 65 KB receive
 * windows at set-up, grown afterwards as Linux 3.13's receiver grows them: §VI-C sets only the set-up value, and
 * Ubuntu 14.04's autotuning is on unless an application fixes its buffer; emulator/README.md, session 16).
 */
export function goelConfig(profile: LossProfile, protocol: 'h1' | 'h2', seed: number, extra: Partial<EmulatorConfig> = {}): EmulatorConfig {
  return {
    bandwidthBps: REFERENCE_RATE_BPS,
    rttMs: REFERENCE_RTT_MS,
    protocol,
    icwnd: 10,
    congestionControl: 'cubic',
    tlsRtts: 1,
    delayedAcks: true,
    receiveWindow: GOEL_RWND_BYTES,
    receiveWindowGrowth: true,
    // No socket opened ahead at the navigation's start: the pages had no root (so none) before they named
    // their document for sharding; kept so that h1's figures stay comparable across sessions.
    preconnect: false,
    ...profile.link(seed),
    ...extra,
    seed,
  };
}
