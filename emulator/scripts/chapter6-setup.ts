/**
 * Chapter 6's simulation set-ups (thesis §6.3-§6.5), as pure functions: the single-path and two-path
 * configurations of each figure and table, the modified MPTCP of Tables 6.1-6.2, and §6.4's changes added one at
 * a time. Shared by thesis-chapter6.ts (the tables) and thesis-chapter6-steps.ts (one cell, per site).
 */
import type { DelayedAckPolicy, EmulatorConfig, LossDetection } from '../src/index.ts';

/** What the chapter's tables hold fixed (thesis defaults as the script's options chose them). */
export interface Chapter6Setup {
  icwnd: number;
  minQueue: number;
  lossDetection: LossDetection;
  delayedAcks: DelayedAckPolicy | false;
  /** The browser's preloader (§3.7.5); on in the thesis. */
  preloader?: boolean;
}

export type Mode = 'sp' | 'spTlp' | 'eq' | 'rtt' | 'bw' | 'worstBw' | 'worstRtt' | 'modRtt' | 'modBw';

/** Tables 6.1-6.2's modified MPTCP ("MP QUIC Stream No LIA TLP"): §6.4.1-§6.4.5 together. */
export const MODIFIED: Partial<EmulatorConfig> = { protocol: 'quic-lite', preemption: true, mptcpScheduler: 'stream', mptcpCc: 'uncoupled', tlp: true, psh: true };

/** One mode's configuration on bandwidth B (bit/s), RTT R (ms), seed. */
export function chapter6Config(setup: Chapter6Setup, mode: Mode, B: number, R: number, seed: number): EmulatorConfig {
  const base: EmulatorConfig = {
    bandwidthBps: B, rttMs: R, protocol: 'h2', priority: 'criticalPath', icwnd: setup.icwnd, minQueuePackets: setup.minQueue,
    rttJitter: 0.1, seed, lossDetection: setup.lossDetection, delayedAcks: setup.delayedAcks,
    ...(setup.preloader === false ? { preloader: false } : {}),
  };
  switch (mode) {
    case 'sp': return base;
    case 'spTlp': return { ...base, tlp: true, psh: true };
    case 'eq': return { ...base, path2: { bandwidthBps: B, rttMs: R } };
    case 'rtt': return { ...base, path2: { bandwidthBps: B, rttMs: 5 * R } };
    case 'bw': return { ...base, path2: { bandwidthBps: B / 5, rttMs: R } };
    case 'worstBw': return { ...base, bandwidthBps: B / 5, path2: { bandwidthBps: B, rttMs: R } };
    case 'worstRtt': return { ...base, rttMs: 5 * R, path2: { bandwidthBps: B, rttMs: R } };
    case 'modRtt': return { ...base, ...MODIFIED, path2: { bandwidthBps: B, rttMs: 5 * R } };
    case 'modBw': return { ...base, ...MODIFIED, path2: { bandwidthBps: B / 5, rttMs: R } };
  }
}

/**
 * §6.4's changes added to baseline MPTCP (h2, min-RTT, LIA) one at a time, in the order of Tables 6.1-6.2's
 * modified MPTCP; the last step is MODIFIED. quic-lite's preemption default is switched off until its own step.
 */
export const CUMULATIVE_STEPS: ReadonlyArray<readonly [string, Partial<EmulatorConfig>]> = [
  ['baseline (h2, min-RTT, LIA)', {}],
  ['+ out-of-order (quic-lite)', { protocol: 'quic-lite', preemption: false }],
  ['+ preemption', { protocol: 'quic-lite', preemption: true }],
  ['+ Stream Scheduler', { protocol: 'quic-lite', preemption: true, mptcpScheduler: 'stream' }],
  ['+ uncoupled', { protocol: 'quic-lite', preemption: true, mptcpScheduler: 'stream', mptcpCc: 'uncoupled' }],
  ['+ TLP', { ...MODIFIED, psh: false }],
  ['+ PSH (= modified)', MODIFIED],
];

/** Each change alone on baseline MPTCP, and the modified MPTCP without each one. */
export function singleChanges(): Array<[string, Partial<EmulatorConfig>]> {
  const alone: Array<[string, Partial<EmulatorConfig>]> = [
    ['baseline + out-of-order', { protocol: 'quic-lite', preemption: false }],
    ['baseline + preemption', { preemption: true }],
    ['baseline + Stream', { mptcpScheduler: 'stream' }],
    ['baseline + uncoupled', { mptcpCc: 'uncoupled' }],
    ['baseline + TLP + PSH', { tlp: true, psh: true }],
  ];
  const without: Array<[string, Partial<EmulatorConfig>]> = [
    ['modified - out-of-order', { ...MODIFIED, protocol: 'h2' }],
    ['modified - preemption', { ...MODIFIED, preemption: false }],
    ['modified - Stream', { ...MODIFIED, mptcpScheduler: 'minrtt' }],
    ['modified - uncoupled', { ...MODIFIED, mptcpCc: 'lia' }],
    ['modified - PSH', { ...MODIFIED, psh: false }],
  ];
  return [...alone, ...without];
}
