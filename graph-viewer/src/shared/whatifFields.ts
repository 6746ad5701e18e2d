/**
 * The what-if panel's fields: every emulator option `pcp emulate` takes (EMULATOR_OPTIONS, parsed by the
 * emulator's parseEmulatorOptions on the server), grouped as the panel shows them. Pure, shared by the panel
 * and its tests. An option the emulator gains later appears under "advanced" by its own name until it is
 * given a label here, so the panel never falls behind the command line.
 */
import {
  EMULATOR_OPTIONS,
  LOSS_DETECTIONS,
  MPTCP_COUPLINGS,
  MPTCP_SCHEDULERS,
  PRIORITY_SCHEMES,
  PROTOCOLS,
  SERVER_MODELS,
  type EmulatorOption,
} from '@pcp/emulator/config';

export const WHATIF_GROUPS = ['network', 'protocol', 'loss', 'multipath', 'advanced'] as const;
export type WhatIfGroup = (typeof WHATIF_GROUPS)[number];
/** Groups shown open when the panel appears; the others are folded. */
export const OPEN_GROUPS: readonly WhatIfGroup[] = ['network', 'protocol'];

export interface WhatIfField {
  key: EmulatorOption;
  group: WhatIfGroup;
  label: string;
  /** text: the emulator's own words; choice: one of `choices` ('' = the emulator's default); file: read in the browser and sent as text (link traces). */
  input: 'text' | 'choice' | 'file';
  choices?: readonly string[];
  /** The value's format, as `pcp emulate --help` gives it. */
  hint?: string;
  /** Starting values of sets A and B ('' = the emulator's default). */
  value?: readonly [string, string];
}

/** Options that are another name of a field's option: parseEmulatorOptions reads either, the panel shows one. */
export const OPTION_ALIASES: Partial<Record<EmulatorOption, EmulatorOption>> = { 'congestion-control': 'cc' };

/** A true/false switch: '' leaves the emulator's default. */
const SWITCH = ['', 'true', 'false'] as const;
const choice = (values: readonly string[], withDefault = true): Pick<WhatIfField, 'input' | 'choices'> => ({ input: 'choice', choices: withDefault ? ['', ...values] : values });
const text = (hint?: string): Pick<WhatIfField, 'input' | 'hint'> => ({ input: 'text', ...(hint ? { hint } : {}) });
const onOff = { input: 'choice', choices: SWITCH } as const;

/** Labels and groups, in the order the panel shows them. */
const DESCRIBED: { [K in EmulatorOption]?: Omit<WhatIfField, 'key'> } = {
  bandwidth: { group: 'network', label: 'bandwidth', ...text('bottleneck rate, tc units: 500kbit, 2.5mbit'), value: ['10mbit', '50mbit'] },
  rtt: { group: 'network', label: 'RTT', ...text('base round-trip time: 8ms, 0.4s'), value: ['80ms', '20ms'] },
  queue: { group: 'network', label: 'queue', ...choice(['red', 'droptail']) },
  'queue-bdp': { group: 'network', label: 'queue (BDPs)', ...text('bottleneck queue size in bandwidth-delay products (default 1.5)') },
  'min-queue': { group: 'network', label: 'min queue (packets)', ...text('smallest bottleneck queue, packets (default 4)') },
  'latency-spikes': { group: 'network', label: 'latency spikes (2s,300ms)', ...text('downlink stalls of d about every i: i,d') },
  'downlink-trace': { group: 'network', label: 'downlink trace', input: 'file', hint: 'Mahimahi trace for the downlink rate' },
  'uplink-trace': { group: 'network', label: 'uplink trace', input: 'file', hint: 'Mahimahi trace for the uplink (requests, ACKs)' },
  'extra-rtt': { group: 'network', label: 'extra RTT per origin', ...text('host=time,host=time') },
  'rtt-jitter': { group: 'network', label: 'RTT jitter (x)', ...text("per-run jitter of each server's RTT, +-x times RTT/4 (thesis: 0.1)") },
  'dns-rtts': { group: 'network', label: 'DNS RTTs', ...text('round trips per DNS lookup (once per host)') },
  'tls-rtts': { group: 'network', label: 'TLS RTTs', ...text('TLS round trips per new connection') },
  protocol: { group: 'protocol', label: 'protocol', ...choice(PROTOCOLS, false), value: ['h1', 'h2'] },
  connections: { group: 'protocol', label: 'connections / host', ...text('HTTP/1.x connections per host (default 6)'), value: ['6', ''] },
  server: { group: 'protocol', label: 'server model', ...choice(SERVER_MODELS) },
  priority: { group: 'protocol', label: 'priority scheme', ...choice(PRIORITY_SCHEMES, false), value: ['none', 'criticalPath'] },
  preemption: { group: 'protocol', label: 'preemption', ...onOff },
  icwnd: { group: 'protocol', label: 'initial cwnd', ...text('initial congestion window, segments (default 10)') },
  cc: { group: 'protocol', label: 'congestion control', ...choice(['newreno', 'cubic']) },
  'delayed-acks': { group: 'protocol', label: 'delayed ACKs', ...onOff },
  psh: { group: 'protocol', label: 'PSH ACKs', ...onOff },
  rwnd: { group: 'protocol', label: 'receive window', ...text("the client's receive window per connection: 65kb") },
  'shard-large': { group: 'protocol', label: 'h2 shard above (bytes)', ...text('HTTP/2: responses above this size over a second connection') },
  'shard-connections': { group: 'protocol', label: 'shard connections (k, each)', ...text('spread those over k connections, or one each') },
  unshard: { group: 'protocol', label: 'unshard hosts', ...text("comma-separated hosts merged onto the first one's server") },
  loss: { group: 'loss', label: 'random loss', ...text('random loss each way: 1% or 0.01') },
  'loss-model': { group: 'loss', label: 'loss model (gilbert:…)', ...text('gilbert:P_GB,P_BG,LOSS_G,LOSS_B, bernoulli:P or list:N,N; replaces random loss') },
  'uplink-loss-model': { group: 'loss', label: 'uplink loss model', ...text("the uplink's own loss model (default: as the downlink)") },
  'loss-detection': { group: 'loss', label: 'loss detection', ...choice(LOSS_DETECTIONS) },
  tlp: { group: 'loss', label: 'tail-loss probes', ...onOff },
  path2: { group: 'multipath', label: 'second path (MPTCP)', ...text('bandwidth,RTT[,loss]: 10mbit,200ms,1% (loss each way)') },
  'path2-loss-model': { group: 'multipath', label: 'path 2 loss model', ...text("the second path's own loss model (gilbert:…, bernoulli:P, list:N,N); replaces its loss") },
  'path2-uplink-loss-model': { group: 'multipath', label: 'path 2 uplink loss model', ...text("the second path's uplink loss model (default: as its downlink)") },
  'path2-latency-spikes': { group: 'multipath', label: 'path 2 latency spikes', ...text('downlink stalls on the second path: 2s,300ms') },
  'path2-downlink-trace': { group: 'multipath', label: 'path 2 downlink trace', input: 'file', hint: "Mahimahi trace for the second path's downlink (e.g. LTE)" },
  'path2-uplink-trace': { group: 'multipath', label: 'path 2 uplink trace', input: 'file', hint: "Mahimahi trace for the second path's uplink" },
  'mptcp-scheduler': { group: 'multipath', label: 'MPTCP scheduler', ...choice(MPTCP_SCHEDULERS) },
  'mptcp-cc': { group: 'multipath', label: 'MPTCP coupling', ...choice(MPTCP_COUPLINGS) },
  'mptcp-lookahead': { group: 'multipath', label: 'stream lookahead', ...onOff },
  'mptcp-rcvbuf': { group: 'multipath', label: 'MPTCP receive buffer', ...text('connection-level receive buffer, bytes (default 16 MiB)') },
  seed: { group: 'advanced', label: 'seed', ...text('random seed: RED drops, losses, spikes, server delays (default 1)') },
};

/** Every emulator option but the aliases: the described ones in their order, then any other by its own name. */
export const WHATIF_FIELDS: readonly WhatIfField[] = [
  ...(Object.entries(DESCRIBED) as [EmulatorOption, Omit<WhatIfField, 'key'>][]).map(([key, f]) => ({ key, ...f })),
  ...(Object.keys(EMULATOR_OPTIONS) as EmulatorOption[])
    .filter((k) => !(k in DESCRIBED) && !(k in OPTION_ALIASES))
    .map((key): WhatIfField => (EMULATOR_OPTIONS[key] === 'switch' ? { key, group: 'advanced', label: key, ...onOff } : { key, group: 'advanced', label: key, input: 'text' })),
];

/**
 * The panel's "other options" box (`pcp emulate --option KEY=VALUE`, any number): one pair per word, split
 * on white space (no option's value holds a space). The server checks each pair with the emulator's
 * optionPairs.
 */
export function splitOptionPairs(text: string): string[] {
  return text.split(/\s+/).filter((w) => w !== '');
}

/** A link trace file chosen in the browser, sent by content: the server reads no file a page names. */
export interface TraceUpload {
  name: string;
  text: string;
}

/** The body of `POST /api/whatif`. */
export interface WhatIfRequest {
  graph: string;
  /** Option words as in EMULATOR_OPTIONS ('' or absent: the emulator's default). */
  options: Record<string, string>;
  /** `KEY=VALUE` pairs over `options` (`--option`). */
  pairs?: string[];
  /** The file fields' contents, by option name. */
  traces?: Partial<Record<EmulatorOption, TraceUpload>>;
}
