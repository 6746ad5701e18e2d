/**
 * Emulator configuration: the public EmulatorConfig, its defaults, and parsing of tc-style option strings
 * (`10mbit`, `40ms`) shared by `pcp emulate`, `pcp sweep` and the viewer's backend.
 */
import type { DelayCdfs } from './server-delays.ts';
import { parseLinkOptions, resolveLinkConfig, type LinkConfig, type ResolvedLinkConfig } from './link-config.ts';
import { parseMultipathOptions, resolveMultipath, type MultipathConfig, type ResolvedMultipath } from './mptcp/options.ts';
export { MPTCP_COUPLINGS, MPTCP_SCHEDULERS, parsePath, type MptcpCoupling, type MptcpScheduler, type MultipathConfig, type PathSpec } from './mptcp/options.ts';
export { LOSS_DETECTIONS, type LossDetection } from './link-config.ts';

export type Protocol = 'h1.0' | 'h1' | 'h1-pipelined' | 'h2' | 'quic-lite';
export type ServerModel = 'serial' | 'parallel' | 'out-of-order';
export type PriorityScheme = 'none' | 'mimeType' | 'criticalPath';
export type CongestionControl = 'newreno' | 'cubic';
export type QueueDiscipline = 'droptail' | 'red';

export const PROTOCOLS: readonly Protocol[] = ['h1.0', 'h1', 'h1-pipelined', 'h2', 'quic-lite'];
export const SERVER_MODELS: readonly ServerModel[] = ['serial', 'parallel', 'out-of-order'];
export const PRIORITY_SCHEMES: readonly PriorityScheme[] = ['none', 'mimeType', 'criticalPath'];

/** Loss, link traces, delayed ACKs and sharding are in link-config.ts; the second path in mptcp/options.ts. */
export interface EmulatorConfig extends LinkConfig, MultipathConfig {
  bandwidthBps: number;
  rttMs: number;
  protocol: Protocol;
  /** HTTP/1.x connections per host; default 6 (HTTP/2 and QUIC-lite always use one). */
  connectionsPerHost?: number;
  /** Default: out-of-order for h2/quic-lite, parallel (FIFO responses) for HTTP/1.x. */
  server?: ServerModel;
  priority?: PriorityScheme;
  /** A higher-priority response may overtake a partly sent one in the send buffer. Default false (true for quic-lite). */
  preemption?: boolean;
  /** Initial congestion window in segments: 1, 4, 10 (default 10). */
  icwnd?: number;
  congestionControl?: CongestionControl;
  /** Bottleneck queue; default RED with the thesis' Table 3.4 settings. */
  queue?: QueueDiscipline;
  /** Maximum bottleneck queue size in bandwidth-delay products; default 1.5 (Table 3.4's max_q). */
  queueBdp?: number;
  /**
   * The smallest queue, packets, whatever queueBdp gives (at low rate and RTT 1.5 BDP is under a packet);
   * default 4. The thesis does not say how ns-3 sized such queues; Table 6.2's 10 Mbit/s / 8 ms cell and
   * the chapter 4 top-left corner depend on it (emulator/README.md).
   */
  minQueuePackets?: number;
  /** Extra round-trip time per origin host (`host` or `host:port`, or a full origin), ms. */
  extraRttMs?: Record<string, number>;
  /** Round trips for a DNS lookup (once per host, cached) and for TLS per new connection; default 0. */
  dnsRtts?: number;
  tlsRtts?: number;
  /** Hosts merged onto one server (and so one HTTP/2 connection): the first host serves them all. */
  unshard?: string[];
  /** Per-MIME-class server delay CDFs, or a directory of *.dist files; default ../shared/legacy-corpus/server-delay-cdfs. */
  serverDelayCdfs?: DelayCdfs | string;
  /** The browser's preloader (§3.7.5); default on. */
  preloader?: boolean;
  /**
   * Blink's resource load scheduler: while the parser is in a document's head, requests below High priority
   * wait while two of the document's requests are in flight (browser/resource-scheduler.ts). Applies to
   * graphs that record Chromium's request priorities; default on.
   */
  resourceScheduler?: boolean;
  /**
   * The main document's body reaches the parser only after the navigation commits, the recorded commit time
   * after its response (graphs that record their navigation); default on.
   */
  navigationCommit?: boolean;
  /**
   * HTTP/1.1: a second connection to the main document's host opens with the document's request (Chromium's
   * preconnect at navigation start), so the first subresource pays no handshake. Default on.
   */
  preconnect?: boolean;
  /**
   * Per-run RTT jitter (§3.7.7.1): each server's path gets a seeded delta in +-rttJitter x d, d = RTT/4 the
   * bottleneck's one-way delay (the thesis used 0.1). Default 0.
   */
  rttJitter?: number;
  seed?: number;
  /**
   * The browser's own time per exchange, as the graph records it (`browserDelay`, Chrome traces): a fixed
   * delay from the renderer's release of a request to the request on the socket, and from the bytes'
   * arrival to the renderer having them. Default on.
   */
  browserDelays?: boolean;
  /**
   * The recorded main-thread work outside the graph (graph `mainThreadTasks`: style, layout, paint, GC, ...)
   * occupies the main thread before the computation it held up (PageModel.hiddenWork). Default on.
   */
  mainThreadTasks?: boolean;
  /**
   * Chromium's preload scanner: each arrived chunk of a document is scanned at once, so the CSS, scripts and
   * images the recording shows it found (requested before their parse chunk ran) are requested as their
   * bytes arrive, not only while the parser is blocked (the thesis' preloader). Applies to graphs that
   * record Chromium's priorities; default on.
   */
  preloadScanner?: boolean;
  /**
   * A frame's document reaches the frame's parser only after the frame's navigation commits (a new renderer
   * for a cross-site frame): its recorded commit delay (graph `browserDelay.commit`, else `.response`) after
   * its first bytes. On by default since session 9: it lowered the identity test's p90 in all six kept runs
   * (emulator/README.md); off when first measured, while it made DOMContentLoaded worse.
   */
  frameCommit?: boolean;
  /**
   * A server that sent its body in pieces over time (a trickled document) sends it no faster in the
   * emulation: the gaps between the recorded body pieces (graph `arrivals`) beyond what the recording's
   * network explains (http/server-pacing.ts) are the server's, and its response becomes available to TCP
   * piece by piece. Default on.
   */
  serverPacing?: boolean;
  /**
   * The document's DOMContentLoaded and load events are dispatched by the renderer's main thread: each waits
   * for the computation running when it became due and for the recorded main-thread work outside the graph
   * that held it up (style, layout, the loader's completion checks; PageModel.markerWork). Off: a marker
   * completes the instant its parents have. Default on (with `mainThreadTasks` for the recorded work).
   */
  eventDispatch?: boolean;
  /**
   * The order the main thread runs ready computations in (browser/main-thread.ts): 'thesis' (default), the
   * thesis's Algorithms 4-5 (timers and events first, then per frame parsing before evaluation), or 'ready',
   * Blink's (one queue in the order they became ready).
   */
  mainThreadOrder?: 'thesis' | 'ready';
  /**
   * Each connection the emulation opens pays, beside its modelled round trips, the handshake work its host's
   * connections took in the recording (graph `browserDelay.connect` less the recorded round trips:
   * http/connection-setup.ts). Default on.
   */
  connectionSetup?: boolean;
  /**
   * Each response reaches the renderer also after the network service read it as recorded (graph
   * `browserDelay.read`, from its headers to the body's end there, less the server's own pacing of the body):
   * the browser's time between the socket and `finishTime`, which the network model does not hold. Default on.
   */
  networkRead?: boolean;
  /**
   * A request Blink's scheduler may hold reaches its loader the renderer's hop after the emulated scheduler
   * releases it: the page's median recorded request-to-release time of the requests Blink never holds (graph
   * `browserDelay.release`, page-model.ts `releaseHop`). Default on.
   */
  releaseHop?: boolean;
  /**
   * Each exchange's response is ready the network service's recorded lag later (graph `browserDelay.wait` less
   * the measured server delay: writing the request, reading the headers; page-model.ts `socketLag`). Default on.
   */
  socketLag?: boolean;
}

/** A config with every default filled in; what the simulator reads. */
export interface ResolvedConfig extends ResolvedLinkConfig, ResolvedMultipath {
  bandwidthBps: number;
  rttMs: number;
  protocol: Protocol;
  connectionsPerHost: number;
  server: ServerModel;
  priority: PriorityScheme;
  preemption: boolean;
  icwnd: number;
  congestionControl: CongestionControl;
  queue: QueueDiscipline;
  queueBdp: number;
  minQueuePackets: number;
  extraRttMs: Map<string, number>;
  dnsRtts: number;
  tlsRtts: number;
  unshard: string[];
  serverDelayCdfs: DelayCdfs | string | undefined;
  preloader: boolean;
  resourceScheduler: boolean;
  navigationCommit: boolean;
  preconnect: boolean;
  rttJitter: number;
  seed: number;
  browserDelays: boolean;
  mainThreadTasks: boolean;
  preloadScanner: boolean;
  frameCommit: boolean;
  serverPacing: boolean;
  eventDispatch: boolean;
  mainThreadOrder: 'thesis' | 'ready';
  connectionSetup: boolean;
  networkRead: boolean;
  releaseHop: boolean;
  socketLag: boolean;
}

export class ConfigError extends Error {}

function hostKey(k: string): string {
  if (k.includes('://')) {
    try {
      return new URL(k).host;
    } catch {
      throw new ConfigError(`not a valid origin: '${k}'`);
    }
  }
  return k.toLowerCase();
}

export function resolveConfig(c: EmulatorConfig): ResolvedConfig {
  if (!(c.bandwidthBps > 0) || !Number.isFinite(c.bandwidthBps)) throw new ConfigError(`bandwidthBps must be a positive number, got ${c.bandwidthBps}`);
  if (!(c.rttMs >= 0) || !Number.isFinite(c.rttMs)) throw new ConfigError(`rttMs must be a non-negative number, got ${c.rttMs}`);
  if (!PROTOCOLS.includes(c.protocol)) throw new ConfigError(`protocol must be one of ${PROTOCOLS.join(', ')}, got '${c.protocol}'`);
  const multiplexed = c.protocol === 'h2' || c.protocol === 'quic-lite';
  if (c.quicPto && c.protocol !== 'quic-lite') throw new ConfigError(`quicPto is QUIC's probe timeout: protocol quic-lite, not ${c.protocol}`);
  const k = c.connectionsPerHost ?? 6;
  if (!Number.isInteger(k) || k < 1) throw new ConfigError(`connectionsPerHost must be a positive integer, got ${k}`);
  const server = c.server ?? (multiplexed ? 'out-of-order' : 'parallel');
  if (!SERVER_MODELS.includes(server)) throw new ConfigError(`server must be one of ${SERVER_MODELS.join(', ')}, got '${server}'`);
  if (server === 'out-of-order' && !multiplexed) throw new ConfigError(`an out-of-order server needs framing: use protocol h2 or quic-lite, not ${c.protocol}`);
  const priority = c.priority ?? 'none';
  if (!PRIORITY_SCHEMES.includes(priority)) throw new ConfigError(`priority must be one of ${PRIORITY_SCHEMES.join(', ')}, got '${priority}'`);
  const icwnd = c.icwnd ?? 10;
  if (!Number.isInteger(icwnd) || icwnd < 1) throw new ConfigError(`icwnd must be a positive integer, got ${icwnd}`);
  const queueBdp = c.queueBdp ?? 1.5;
  if (!(queueBdp > 0)) throw new ConfigError(`queueBdp must be positive, got ${queueBdp}`);
  const minQueuePackets = c.minQueuePackets ?? MIN_QUEUE_PACKETS;
  if (!Number.isInteger(minQueuePackets) || minQueuePackets < 1) throw new ConfigError(`minQueuePackets must be a positive integer, got ${minQueuePackets}`);
  const cc = c.congestionControl ?? 'newreno';
  if (cc !== 'newreno' && cc !== 'cubic') throw new ConfigError(`congestionControl must be newreno or cubic, got '${cc}'`);
  const queue = c.queue ?? 'red';
  if (queue !== 'red' && queue !== 'droptail') throw new ConfigError(`queue must be red or droptail, got '${queue}'`);
  const extra = new Map<string, number>();
  for (const [key, v] of Object.entries(c.extraRttMs ?? {})) {
    if (!(v >= 0)) throw new ConfigError(`extraRttMs['${key}'] must be a non-negative number`);
    extra.set(hostKey(key), v);
  }
  if (c.rttJitter !== undefined && !(c.rttJitter >= 0 && c.rttJitter < 2)) throw new ConfigError(`rttJitter must be in [0, 2), got ${c.rttJitter}`);
  for (const [name, v] of [['dnsRtts', c.dnsRtts], ['tlsRtts', c.tlsRtts]] as const) {
    if (v !== undefined && !(v >= 0)) throw new ConfigError(`${name} must be a non-negative number`);
  }
  return {
    bandwidthBps: c.bandwidthBps,
    rttMs: c.rttMs,
    protocol: c.protocol,
    connectionsPerHost: multiplexed ? 1 : c.protocol === 'h1.0' ? k : k,
    server,
    priority,
    preemption: c.preemption ?? c.protocol === 'quic-lite',
    icwnd,
    congestionControl: cc,
    queue,
    queueBdp,
    minQueuePackets,
    extraRttMs: extra,
    dnsRtts: c.dnsRtts ?? 0,
    tlsRtts: c.tlsRtts ?? 0,
    unshard: (c.unshard ?? []).map(hostKey),
    serverDelayCdfs: c.serverDelayCdfs,
    preloader: c.preloader ?? true,
    resourceScheduler: c.resourceScheduler ?? true,
    navigationCommit: c.navigationCommit ?? true,
    preconnect: c.preconnect ?? true,
    rttJitter: c.rttJitter ?? 0,
    seed: c.seed ?? 1,
    ...resolveLinkConfig(c),
    browserDelays: c.browserDelays ?? true,
    mainThreadTasks: c.mainThreadTasks ?? true,
    preloadScanner: c.preloadScanner ?? true,
    frameCommit: c.frameCommit ?? true,
    serverPacing: c.serverPacing ?? true,
    eventDispatch: c.eventDispatch ?? true,
    mainThreadOrder: c.mainThreadOrder ?? 'thesis',
    connectionSetup: c.connectionSetup ?? true,
    networkRead: c.networkRead ?? true,
    releaseHop: c.releaseHop ?? true,
    socketLag: c.socketLag ?? true,
    ...resolveMultipath(c),
  };
}

const RATE_UNITS: Record<string, number> = {
  bit: 1, bps: 1, kbit: 1e3, kbps: 8e3, mbit: 1e6, mbps: 8e6, gbit: 1e9, gbps: 8e9, tbit: 1e12,
};

/** A tc rate: `500kbit`, `10mbit`, `1gbit`, `2.5Mbit`; (tc's `bps` means bytes per second). A bare number is bits/s. */
export function parseRate(s: string): number {
  const m = /^\s*([0-9]*\.?[0-9]+(?:e[+-]?\d+)?)\s*([a-z]*)\s*$/i.exec(s);
  const unit = m?.[2]?.toLowerCase() ?? '';
  const mult = unit === '' ? 1 : RATE_UNITS[unit];
  if (!m || mult === undefined) throw new ConfigError(`not a rate: '${s}' (use tc units, e.g. 500kbit, 10mbit, 1gbit)`);
  const v = Number(m[1]) * mult;
  if (!(v > 0)) throw new ConfigError(`rate must be positive: '${s}'`);
  return v;
}

/** A tc time: `40ms`, `1s`, `500us`; a bare number is milliseconds. */
export function parseTime(s: string): number {
  const m = /^\s*([0-9]*\.?[0-9]+)\s*(us|usec|ms|msec|s|sec|secs)?\s*$/i.exec(s);
  if (!m) throw new ConfigError(`not a time: '${s}' (use tc units, e.g. 8ms, 0.4s)`);
  const v = Number(m[1]);
  const unit = (m[2] ?? 'ms').toLowerCase();
  return unit.startsWith('u') ? v / 1000 : unit.startsWith('s') ? v * 1000 : v;
}

/** Option `--name`'s word `v`, one of `values`; else a ConfigError listing them ("a, b or c"). */
export function oneOf<T extends string>(name: string, v: string, values: readonly T[]): T {
  if (!(values as readonly string[]).includes(v)) throw new ConfigError(`--${name} expects ${wordList(values)}, got '${v}'`);
  return v as T;
}

/** Words as a sentence lists them: `a`, `a or b`, `a, b or c`. */
function wordList(words: readonly string[]): string {
  return words.length <= 1 ? words.join('') : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;
}

/**
 * A queue shorter than this many packets cannot absorb even the SYN-ACK burst of a page; floor it
 * (`minQueuePackets` changes the floor).
 */
export const MIN_QUEUE_PACKETS = 4;

function int(name: string, v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n)) throw new ConfigError(`--${name} expects an integer, got '${v}'`);
  return n;
}

function bool(name: string, v: string): boolean {
  if (['true', '1', 'yes', 'on', ''].includes(v.toLowerCase())) return true;
  if (['false', '0', 'no', 'off'].includes(v.toLowerCase())) return false;
  throw new ConfigError(`--${name} expects true or false, got '${v}'`);
}

/**
 * The string options parseEmulatorOptions reads, declared once: `pcp emulate` flags, `pcp sweep` grid keys
 * and the viewer's what-if fields are these names. 'value' options take a string; 'switch' options are
 * true/false (on the command line a flag: --preemption, --no-preloader).
 */
export const EMULATOR_OPTIONS = {
  bandwidth: 'value',
  rtt: 'value',
  protocol: 'value',
  connections: 'value',
  server: 'value',
  priority: 'value',
  preemption: 'switch',
  icwnd: 'value',
  cc: 'value',
  'congestion-control': 'value',
  queue: 'value',
  'queue-bdp': 'value',
  'min-queue': 'value',
  'dns-rtts': 'value',
  'tls-rtts': 'value',
  unshard: 'value',
  'extra-rtt': 'value',
  preloader: 'switch',
  'resource-scheduler': 'switch',
  'navigation-commit': 'switch',
  preconnect: 'switch',
  'rtt-jitter': 'value',
  seed: 'value',
  // Lossy links, link traces, delayed ACKs, h2 sharding (link-config.ts).
  loss: 'value',
  'loss-model': 'value',
  'uplink-loss-model': 'value',
  'latency-spikes': 'value',
  'downlink-trace': 'value',
  'uplink-trace': 'value',
  'delayed-acks': 'switch',
  psh: 'switch',
  tlp: 'switch',
  'loss-detection': 'value',
  'early-retransmit': 'switch',
  fack: 'switch',
  'quic-pto': 'switch',
  frto: 'switch',
  'linux-idle-restart': 'switch',
  'linux-rto': 'switch',
  'shard-large': 'value',
  'shard-connections': 'value',
  'shard-overflow': 'value',
  rwnd: 'value',
  'rwnd-growth': 'switch',
  // Chromium's own time and work as the graph records it (issue 12 §5; emulator/README.md).
  'browser-delays': 'switch',
  'main-thread-tasks': 'switch',
  'preload-scanner': 'switch',
  'frame-commit': 'switch',
  'server-pacing': 'switch',
  'event-dispatch': 'switch',
  'main-thread-order': 'value',
  'connection-setup': 'switch',
  'network-read': 'switch',
  'release-hop': 'switch',
  'socket-lag': 'switch',
  // Multipath (mptcp/options.ts): a second path makes every connection MPTCP.
  path2: 'value',
  'path2-loss-model': 'value',
  'path2-uplink-loss-model': 'value',
  'path2-latency-spikes': 'value',
  'path2-downlink-trace': 'value',
  'path2-uplink-trace': 'value',
  'mptcp-scheduler': 'value',
  'mptcp-lookahead': 'value',
  'mptcp-cc': 'value',
  'mptcp-rcvbuf': 'value',
} as const satisfies Record<string, 'value' | 'switch'>;

export type EmulatorOption = keyof typeof EMULATOR_OPTIONS;

/**
 * `KEY=VALUE` pairs (a command's repeatable `--option`) into an options record for parseEmulatorOptions, over
 * `base`. Throws a ConfigError naming a malformed pair or an unknown key.
 */
export function optionPairs(pairs: readonly string[], base: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  const out = { ...base };
  for (const o of pairs) {
    const eq = o.indexOf('=');
    if (eq <= 0) throw new ConfigError(`--option expects KEY=VALUE, got '${o}'`);
    const key = o.slice(0, eq);
    if (!(key in EMULATOR_OPTIONS)) throw new ConfigError(`--option: unknown emulator option '${key}' (known: ${Object.keys(EMULATOR_OPTIONS).join(', ')})`);
    out[key] = o.slice(eq + 1);
  }
  return out;
}

/** The options that take a string value (every one but the true/false switches). */
export const EMULATOR_VALUE_OPTIONS = (Object.keys(EMULATOR_OPTIONS) as EmulatorOption[]).filter((k) => EMULATOR_OPTIONS[k] === 'value');

/**
 * Builds a config from string options as a CLI or a query string gives them, named as in EMULATOR_OPTIONS
 * (unshard: a comma list; extra-rtt: `host=ms,host=ms`). Unknown keys are an error.
 */
export function parseEmulatorOptions(opts: Record<string, string | undefined>): EmulatorConfig {
  for (const [k, v] of Object.entries(opts)) if (v !== undefined && !Object.hasOwn(EMULATOR_OPTIONS, k)) throw new ConfigError(`unknown emulator option '${k}'`);
  const bw = opts.bandwidth;
  const rtt = opts.rtt;
  if (bw === undefined) throw new ConfigError('bandwidth is required (e.g. 10mbit)');
  if (rtt === undefined) throw new ConfigError('rtt is required (e.g. 40ms)');
  const config: EmulatorConfig = {
    bandwidthBps: parseRate(bw),
    rttMs: parseTime(rtt),
    protocol: oneOf('protocol', opts.protocol ?? 'h1', PROTOCOLS),
  };
  if (opts.connections !== undefined) config.connectionsPerHost = int('connections', opts.connections);
  if (opts.server !== undefined) config.server = oneOf('server', opts.server, SERVER_MODELS);
  if (opts.priority !== undefined) config.priority = oneOf('priority', opts.priority, PRIORITY_SCHEMES);
  if (opts.preemption !== undefined) config.preemption = bool('preemption', opts.preemption);
  if (opts.icwnd !== undefined) config.icwnd = int('icwnd', opts.icwnd);
  const cc = opts.cc ?? opts['congestion-control'];
  if (cc !== undefined) config.congestionControl = oneOf('cc', cc, ['newreno', 'cubic'] as const);
  if (opts.queue !== undefined) config.queue = oneOf('queue', opts.queue, ['droptail', 'red'] as const);
  if (opts['queue-bdp'] !== undefined) config.queueBdp = Number(opts['queue-bdp']);
  if (opts['min-queue'] !== undefined) config.minQueuePackets = int('min-queue', opts['min-queue']);
  if (opts['dns-rtts'] !== undefined) config.dnsRtts = Number(opts['dns-rtts']);
  if (opts['tls-rtts'] !== undefined) config.tlsRtts = Number(opts['tls-rtts']);
  if (opts.unshard !== undefined) config.unshard = opts.unshard.split(',').map((h) => h.trim()).filter(Boolean);
  if (opts['extra-rtt'] !== undefined) {
    const extra: Record<string, number> = {};
    for (const part of opts['extra-rtt'].split(',').filter(Boolean)) {
      const eq = part.lastIndexOf('=');
      if (eq <= 0) throw new ConfigError(`--extra-rtt expects host=time pairs, got '${part}'`);
      extra[part.slice(0, eq).trim()] = parseTime(part.slice(eq + 1));
    }
    config.extraRttMs = extra;
  }
  if (opts.preloader !== undefined) config.preloader = bool('preloader', opts.preloader);
  if (opts['resource-scheduler'] !== undefined) config.resourceScheduler = bool('resource-scheduler', opts['resource-scheduler']);
  if (opts['navigation-commit'] !== undefined) config.navigationCommit = bool('navigation-commit', opts['navigation-commit']);
  if (opts.preconnect !== undefined) config.preconnect = bool('preconnect', opts.preconnect);
  if (opts['rtt-jitter'] !== undefined) config.rttJitter = Number(opts['rtt-jitter']);
  if (opts.seed !== undefined) config.seed = int('seed', opts.seed);
  parseLinkOptions(opts, config, bool);
  if (opts['browser-delays'] !== undefined) config.browserDelays = bool('browser-delays', opts['browser-delays']);
  if (opts['main-thread-tasks'] !== undefined) config.mainThreadTasks = bool('main-thread-tasks', opts['main-thread-tasks']);
  if (opts['preload-scanner'] !== undefined) config.preloadScanner = bool('preload-scanner', opts['preload-scanner']);
  if (opts['frame-commit'] !== undefined) config.frameCommit = bool('frame-commit', opts['frame-commit']);
  if (opts['server-pacing'] !== undefined) config.serverPacing = bool('server-pacing', opts['server-pacing']);
  if (opts['event-dispatch'] !== undefined) config.eventDispatch = bool('event-dispatch', opts['event-dispatch']);
  if (opts['main-thread-order'] !== undefined) {
    const o = opts['main-thread-order'];
    if (o !== 'thesis' && o !== 'ready') throw new ConfigError(`--main-thread-order expects thesis or ready, got '${o}'`);
    config.mainThreadOrder = o;
  }
  if (opts['connection-setup'] !== undefined) config.connectionSetup = bool('connection-setup', opts['connection-setup']);
  if (opts['network-read'] !== undefined) config.networkRead = bool('network-read', opts['network-read']);
  if (opts['release-hop'] !== undefined) config.releaseHop = bool('release-hop', opts['release-hop']);
  if (opts['socket-lag'] !== undefined) config.socketLag = bool('socket-lag', opts['socket-lag']);
  Object.assign(config, parseMultipathOptions(opts, bool));
  resolveConfig(config); // validate combinations now, with the same messages the simulator would give
  return config;
}
