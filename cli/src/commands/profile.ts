import { readFileSync } from 'node:fs';
import { linkSpec, profileReplay, serverDelays } from '../replay-profile.ts';
import { positiveInt, CliError, Progress, UsageError, flag, parse, str, type Command } from '../kit.ts';
import { PROFILE_OPTIONS, PROFILE_OPTIONS_USAGE, captureOptions, requireChromium } from '../profile-options.ts';

const usage = `
usage: pcp profile URL... --out DIR [options]
       pcp profile --list FILE --out DIR [options]
       pcp profile --replay BUNDLE --out DIR [--pace] [options]

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
${PROFILE_OPTIONS_USAGE}
  --force                        re-capture pages whose bundle is complete
  --bandwidth RATE, --rtt TIME   profile through a real shaped link (root; tc units: 5mbit, 40ms), one URL:
  [--loss P]                     the page is recorded unshaped into DIR/recording (archive and capture),
                                 then its replay is served inside the link's server namespace and profiled
                                 from the client namespace into DIR; meta.json's options.conditions has
                                 the link and replayedFrom (record-and-replay, as Mahimahi: this kernel has
                                 no veth, so a live origin cannot sit behind the link)
  --replay BUNDLE                profile the page of BUNDLE's archive.har (recorded with --archive, or
                                 made by pcp synthesize) served by pcp replay on loopback: the server is
                                 started, Chromium pointed at it, both stopped after; server delays
                                 from BUNDLE/server-delays.json when present; a site made by pcp
                                 synthesize is not ended on quiet before its source graph's last
                                 download or timer (+10%, at least 2 s; meta.json options.quietNotBeforeMs)
                                 responses the recorded browser took from its cache (archive _fromCache:
                                 a legacy graph's cache hits) are put in Chromium's HTTP cache first, by a
                                 warm-up tab of the same profile (meta.json cacheWarmUp; not in the bundle)
  --pace                         with --replay: bodies trickled as the archive's _chunks say
  --no-cache-warm-up             with --replay: no warm-up, every response from the server (an A/B)
                                 (--replay with --bandwidth/--rtt: the replay served through the shaped link)

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
      ...PROFILE_OPTIONS,
      force: { type: 'boolean' },
      bandwidth: { type: 'string' },
      rtt: { type: 'string' },
      loss: { type: 'string' },
      replay: { type: 'string' },
      pace: { type: 'boolean' },
      'no-cache-warm-up': { type: 'boolean' },
    });
    const out = str(p, 'out');
    if (!out) throw new UsageError('--out DIR is required');
    const replay = str(p, 'replay');
    if (flag(p, 'pace') && !replay) throw new UsageError('--pace goes with --replay');
    if (flag(p, 'no-cache-warm-up') && !replay) throw new UsageError('--no-cache-warm-up goes with --replay');
    if (replay && (p.positionals.length || str(p, 'list'))) throw new UsageError('--replay takes no URL or --list (the page is the archive\'s)');
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
    if (urls.length === 0 && !replay) throw new UsageError('give at least one URL (or --list FILE)');
    for (const u of urls) {
      try {
        const parsed = new URL(u);
        if (!/^(https?|file):$/.test(parsed.protocol)) throw new Error();
      } catch {
        throw new UsageError(`not an http(s) URL: ${u}`);
      }
    }
    const concurrency = positiveInt(p, 'concurrency', 1);
    const opts = captureOptions(p);
    const { capturePage, profileMany, DEFAULT_CHROMIUM } = await import('@pcp/profiler');
    requireChromium(opts.executablePath, DEFAULT_CHROMIUM);

    const shaped = linkSpec(p);
    if (shaped && !replay) {
      if (urls.length !== 1) throw new UsageError('a shaped profile takes one URL (--bandwidth/--rtt)');
      const { profileShaped } = await import('../profile-shaped.ts');
      return profileShaped(urls[0]!, out, shaped, opts);
    }
    if (replay) {
      const records = await serverDelays(replay, undefined, false);
      // A synthesized site knows when its source graph was last active: quiet may not end the load before then.
      const { readSynthMeta, quietFloorMs, legacyProcessModel } = await import('@pcp/synth');
      const synth = readSynthMeta(replay);
      const last = synth?.lastActivityMs;
      // A site synthesized from a legacy graph replays its 2016 browser's process model unless asked:
      // cross-site iframes in the page's renderer (synth/README.md, the round trip's contract).
      const siteIsolation = opts.siteIsolation ?? (synth && legacyProcessModel(synth) ? false : undefined);
      const capture = { ...opts, siteIsolation, ...(last === undefined ? {} : { quietNotBeforeMs: quietFloorMs(last) }) };
      const { meta, stats } = await profileReplay(replay, out, { shaped, records, pace: flag(p, 'pace'), cacheWarmUp: !flag(p, 'no-cache-warm-up'), chromium: opts.executablePath, timeoutMs: opts.timeoutMs ?? 60_000, capture });
      const line = `${meta.status}: ${meta.url} replayed from ${replay} — ${meta.endReason}: ${meta.message}; ${stats.requests} requests${stats.faviconMisses ? ` (+${stats.faviconMisses} unrecorded favicon)` : ''}, ${stats.misses.length} misses`;
      for (const w of meta.warnings) console.error(`warning: ${w}`);
      if (stats.setupTaken?.responses) console.error(`replay: ${stats.setupTaken.responses} responses first on a new TLS connection, its handshake (${Math.round(stats.setupTaken.ms)} ms in all) taken off their source schedules`);
      if (stats.endByTaken?.responses) console.error(`replay: ${stats.endByTaken.responses} responses asked for after their page time allowed, ${Math.round(stats.endByTaken.ms)} ms in all taken off their source schedules to end by it (_endBy)`);
      if (meta.status === 'failed') throw new CliError(`${line} (bundle: ${out})`);
      console.log(`${line}\nbundle: ${out}`);
      return 0;
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
