import { readFileSync } from 'node:fs';
import { linkSpec } from '../replay-profile.ts';
import { positiveInt, CliError, Progress, UsageError, flag, num, parse, str, type Command } from '../kit.ts';

const usage = `
usage: pcp profile URL... --out DIR [options]
       pcp profile --list FILE --out DIR [options]

Loads each page in headless Chromium (/usr/bin/chromium, fresh profile per page so the cache is
cold) and records the load through the DevTools Protocol, in every frame including out-of-process
iframes. With one URL, DIR is that page's bundle; with several, DIR holds one bundle per page
(named from the URL) and an index.json, and pages whose bundle is already complete are skipped.

A bundle holds trace.json.gz (Chrome trace: DevTools Performance panel, Perfetto), devtools.log.json
(protocol events, Lighthouse's layout), frames.json, meta.json (browser, command line, timings,
status), and with the options below capture.pcap and tls-keys.log.

Completion: after the load event, until no network or frame activity for --quiet ms, capped by
--timeout. meta.json says why the capture ended: quiet, timeout, no-load, unreachable, download,
renderer-crash, browser-crash, browser-missing, error.

options:
  --out DIR                      output (required)
  --list FILE                    read URLs from FILE, one per line (# comments allowed)
  --concurrency N                pages loaded at once (default 1; each has its own browser)
  --timeout MS                   cap on one load (default 60000)
  --quiet MS                     quiet time after load that ends a capture (default 1000)
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
  --force                        re-capture pages whose bundle is complete
  --bandwidth RATE, --rtt TIME   profile through a real shaped link (root; tc units: 5mbit, 40ms), one URL:
  [--loss P]                     the page is recorded unshaped into DIR/recording (archive and capture),
                                 then its replay is served inside the link's server namespace and profiled
                                 from the client namespace into DIR; meta.json's options.conditions has
                                 the link and replayedFrom (record-and-replay, as Mahimahi: this kernel has
                                 no veth, so a live origin cannot sit behind the link)

exit status: 0 when every page has a complete or partial bundle, 1 when any page failed.
`;

export const command: Command = {
  name: 'profile',
  summary: 'load pages in Chromium and record trace + network bundles',
  usage,
  async run(args) {
    const p = parse(args, {
      out: { type: 'string' },
      list: { type: 'string' },
      concurrency: { type: 'string' },
      timeout: { type: 'string' },
      quiet: { type: 'string' },
      'host-resolver-rules': { type: 'string' },
      'ignore-certificate-errors': { type: 'boolean' },
      pcap: { type: 'boolean' },
      'pcap-interface': { type: 'string' },
      'ssl-key-log': { type: 'boolean' },
      viewport: { type: 'string' },
      'user-agent': { type: 'string' },
      chromium: { type: 'string' },
      force: { type: 'boolean' },
      'task-flows': { type: 'boolean' },
      archive: { type: 'boolean' },
      bandwidth: { type: 'string' },
      rtt: { type: 'string' },
      loss: { type: 'string' },
    });
    const out = str(p, 'out');
    if (!out) throw new UsageError('--out DIR is required');
    const urls = [...p.positionals];
    const list = str(p, 'list');
    if (list) {
      let text: string;
      try {
        text = readFileSync(list, 'utf8');
      } catch (e) {
        throw new CliError(`cannot read --list ${list}: ${(e as Error).message}`);
      }
      urls.push(...text.split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#')));
    }
    if (urls.length === 0) throw new UsageError('give at least one URL (or --list FILE)');
    for (const u of urls) {
      try {
        const parsed = new URL(u);
        if (!/^(https?|file):$/.test(parsed.protocol)) throw new Error();
      } catch {
        throw new UsageError(`not an http(s) URL: ${u}`);
      }
    }
    let viewport: { width: number; height: number } | undefined;
    const vp = str(p, 'viewport');
    if (vp) {
      const m = /^(\d+)x(\d+)$/.exec(vp);
      if (!m) throw new UsageError(`--viewport expects WxH, got '${vp}'`);
      viewport = { width: Number(m[1]), height: Number(m[2]) };
    }
    const concurrency = positiveInt(p, 'concurrency', 1);
    const opts = {
      executablePath: str(p, 'chromium'),
      timeoutMs: num(p, 'timeout', 60_000),
      quietMs: num(p, 'quiet', 1000),
      hostResolverRules: str(p, 'host-resolver-rules'),
      ignoreCertificateErrors: flag(p, 'ignore-certificate-errors'),
      pcap: flag(p, 'pcap'),
      pcapInterface: str(p, 'pcap-interface'),
      sslKeyLog: flag(p, 'ssl-key-log'),
      viewport,
      userAgent: str(p, 'user-agent'),
      taskFlows: flag(p, 'task-flows'),
      archive: flag(p, 'archive'),
    };
    const { capturePage, profileMany, DEFAULT_CHROMIUM } = await import('@pcp/profiler');
    const { existsSync } = await import('node:fs');
    const exe = opts.executablePath ?? DEFAULT_CHROMIUM;
    if (!existsSync(exe)) throw new CliError(`Chromium not found at ${exe} (install the 'chromium' package or pass --chromium PATH)`);

    const shaped = linkSpec(p);
    if (shaped) {
      if (urls.length !== 1) throw new UsageError('a shaped profile takes one URL (--bandwidth/--rtt)');
      const { profileShaped } = await import('../profile-shaped.ts');
      return profileShaped(urls[0]!, out, shaped, opts);
    }
    if (urls.length === 1) {
      const { meta } = await capturePage(urls[0]!, out, opts);
      const line = `${meta.status}: ${meta.url} — ${meta.endReason}: ${meta.message}`;
      for (const w of meta.warnings) console.error(`warning: ${w}`);
      if (meta.status === 'failed') throw new CliError(`${line} (bundle: ${out})`);
      console.log(`${line}\nbundle: ${out}`);
      return 0;
    }
    const progress = new Progress(urls.length, 'profile');
    const items = await profileMany(urls, out, {
      ...opts,
      concurrency,
      force: flag(p, 'force'),
      onItem: (item) => {
        const ok = item.meta?.status !== 'failed';
        if (!ok) console.error(`\nfailed: ${item.url} — ${item.meta?.endReason}: ${item.meta?.message}`);
        progress.tick(ok, item.url);
      },
    });
    const by = (st: string): number => items.filter((i) => i.meta?.status === st).length;
    const skipped = items.filter((i) => i.skipped).length;
    console.log(`${by('complete')} complete (${skipped} already done), ${by('partial')} partial, ${by('failed')} failed; index: ${out}/index.json`);
    return by('failed') > 0 ? 1 : 0;
  },
};
