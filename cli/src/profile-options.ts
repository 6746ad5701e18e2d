/**
 * The profiler's options, shared by every command that loads pages (`pcp profile`, `pcp corpus build`,
 * `pcp corpus build-site`): their parseArgs spec, their help lines, the CaptureOptions they give, and the
 * arguments that pass them on to a child `pcp` (the Dask driver's tasks).
 */
import { existsSync } from 'node:fs';
import { CliError, UsageError, flag, num, str, type Options, type Parsed } from './kit.ts';

export const PROFILE_OPTIONS = {
  timeout: { type: 'string' },
  quiet: { type: 'string' },
  'timer-horizon': { type: 'string' },
  'timer-cap': { type: 'string' },
  'host-resolver-rules': { type: 'string' },
  'ignore-certificate-errors': { type: 'boolean' },
  pcap: { type: 'boolean' },
  'pcap-interface': { type: 'string' },
  'ssl-key-log': { type: 'boolean' },
  viewport: { type: 'string' },
  'user-agent': { type: 'string' },
  chromium: { type: 'string' },
  'task-flows': { type: 'boolean' },
  archive: { type: 'boolean' },
  'no-preload-scanner': { type: 'boolean' },
  'no-focus-emulation': { type: 'boolean' },
  'no-renderer-holds': { type: 'boolean' },
  'no-site-isolation': { type: 'boolean' },
  'site-isolation': { type: 'boolean' },
} satisfies Options;

/**
 * Blink's resource load scheduler out of its tight mode (Chromium 156: until the main document's <body> is
 * inserted, at most 2 requests below High priority in flight; the renderer holds the rest before the network
 * service sees them). Its limit is the field trial parameter `tight_limit` of the trial
 * `RendererSideResourceScheduler` (resource_load_scheduler.cc), raised here to the normal mode's 1024.
 * 2016's Chromium had no such renderer hold: its ResourceScheduler held in the browser process, after the
 * request's recorded send, so those holds are inside a legacy graph's spans already.
 */
export const NO_RENDERER_HOLDS_ARGS = [
  '--force-fieldtrials=RendererSideResourceScheduler/NoTightMode',
  '--force-fieldtrial-params=RendererSideResourceScheduler.NoTightMode:tight_limit/1024',
];

/** The switches the profiler options add to Chromium's command line (undefined: none). Pure. */
export function profileChromiumArgs(p: Parsed): string[] | undefined {
  const args = [
    ...(flag(p, 'no-preload-scanner') ? ['--blink-settings=doHtmlPreloadScanning=false'] : []),
    ...(flag(p, 'no-renderer-holds') ? NO_RENDERER_HOLDS_ARGS : []),
  ];
  return args.length ? args : undefined;
}

export const PROFILE_OPTIONS_USAGE = `
  --timeout MS                   cap on one load (default 60000)
  --quiet MS                     quiet time after load that ends a capture (default 1000)
  --timer-horizon MS             a page's pending setTimeout due within MS (or overdue), or one whose callback
                                 is running, keeps the capture open (default 5000; 0: timers not followed)
  --timer-cap MS                 timers keep it open at most MS after the network was quiet (default 10000)
  --host-resolver-rules RULES    passed to Chromium, e.g. 'MAP *.pcp.test 127.0.0.1'
  --ignore-certificate-errors    accept self-signed certificates
  --pcap                         run tcpdump during the load (interface chosen from the URL), capture.pcap
  --pcap-interface IF            capture on IF instead
  --ssl-key-log                  Chromium writes its TLS keys to tls-keys.log (decrypt the pcap)
  --viewport WxH                 window size (default 1280x800)
  --user-agent UA                override the user agent
  --chromium PATH                browser executable (default /usr/bin/chromium)
  --archive                      also store every response with its body in archive.har (HAR 1.2),
                                 for pcp replay; meta.json counts bodies that could not be recorded
  --task-flows                   also trace posted-task flows, which link a MessagePort message to the
                                 script that sent it (traces ~4x larger, loads slower)
  --no-preload-scanner           Chromium requests what a tag names when its parser reaches the tag, not
                                 ahead of it (Blink's doHtmlPreloadScanning off)
  --no-renderer-holds            Blink's resource load scheduler never in its tight mode (Chromium 156 holds
                                 requests below High priority in the renderer until <body>; 2016's did not)
  --no-focus-emulation           load the page as an unfocused headless tab: element.focus() then fires no
                                 focus or blur event (default: focused, as a user's tab; meta.json records it)
  --no-site-isolation            cross-site iframes run in their parent's renderer, on its main thread, as
                                 before 2018 (Chromium's --disable-site-isolation-trials, and Google
                                 sign-in's origin not isolated either): a frame's postMessage is then
                                 traced into its parent's handler (meta.json
                                 options.siteIsolation); default Chromium's own (site isolation on), except
                                 --replay of a site synthesized from a legacy (2016) graph
  --site-isolation               Chromium's own process model, also for such a replay`.slice(1);

/** The capture options the profiler options give (capturePage's). */
export function captureOptions(p: Parsed) {
  let viewport: { width: number; height: number } | undefined;
  const vp = str(p, 'viewport');
  if (vp) {
    const m = /^(\d+)x(\d+)$/.exec(vp);
    if (!m) throw new UsageError(`--viewport expects WxH, got '${vp}'`);
    viewport = { width: Number(m[1]), height: Number(m[2]) };
  }
  for (const name of ['timer-horizon', 'timer-cap']) if (num(p, name, 0) < 0) throw new UsageError(`--${name} expects a time in ms >= 0, got '${str(p, name)}'`);
  if (flag(p, 'site-isolation') && flag(p, 'no-site-isolation')) throw new UsageError('--site-isolation and --no-site-isolation exclude each other');
  return {
    executablePath: str(p, 'chromium'),
    timeoutMs: num(p, 'timeout', 60_000),
    quietMs: num(p, 'quiet', 1000),
    timerHorizonMs: num(p, 'timer-horizon', 5000),
    timerCapMs: num(p, 'timer-cap', 10_000),
    hostResolverRules: str(p, 'host-resolver-rules'),
    ignoreCertificateErrors: flag(p, 'ignore-certificate-errors'),
    pcap: flag(p, 'pcap'),
    pcapInterface: str(p, 'pcap-interface'),
    sslKeyLog: flag(p, 'ssl-key-log'),
    viewport,
    userAgent: str(p, 'user-agent'),
    taskFlows: flag(p, 'task-flows'),
    archive: flag(p, 'archive'),
    focusEmulation: !flag(p, 'no-focus-emulation'),
    /** undefined: not asked (Chromium's own, or the replayed site's browser's, profile.ts). */
    siteIsolation: flag(p, 'no-site-isolation') ? false : flag(p, 'site-isolation') ? true : undefined,
    chromiumArgs: profileChromiumArgs(p),
  };
}

/** The browser executable the options name, checked to exist (a one-line failure before any page is loaded). */
export function requireChromium(executablePath: string | undefined, fallback: string): string {
  const exe = executablePath ?? fallback;
  if (!existsSync(exe)) throw new CliError(`Chromium not found at ${exe} (install the 'chromium' package or pass --chromium PATH)`);
  return exe;
}

/** The profiler options given on this command line, as arguments for a child `pcp` command. */
export function profileArgs(p: Parsed): string[] {
  const out: string[] = [];
  for (const [name, spec] of Object.entries(PROFILE_OPTIONS)) {
    const v = p.values[name];
    if (spec.type === 'boolean' && v === true) out.push(`--${name}`);
    else if (spec.type === 'string' && typeof v === 'string') out.push(`--${name}`, v);
  }
  return out;
}
