/**
 * pcp replay: a profiled page served again from its bundle's archive (Mahimahi's ReplayShell idea),
 * and real Chromium loads of it. A thin shell over @pcp/replay.
 */
import { positiveInt, CliError, UsageError, flag, num, parse, str, type Command } from '../kit.ts';
import { PCP_BIN, linkSpec, profileReplay, readBundleArchive, serverDelays } from '../replay-profile.ts';

const usage = `
usage: pcp replay BUNDLE --serve [--port N] [--bind ADDR] [options]
       pcp replay BUNDLE [--runs 5] [--json] [--protocol h1|h2] [options]
       pcp replay BUNDLE --bandwidth 5mbit --rtt 40ms [--loss 1%] [--runs 5] [--json] [options]

Serves every origin recorded in BUNDLE's archive.har (written by pcp profile --archive) on this
machine: plain http origins over HTTP/1.1, https origins over TLS with a certificate made at start
(Chromium trusts it through --ignore-certificate-errors-spki-list), HTTP/2 where the recording saw
h2. Chromium reaches the origins through --host-resolver-rules (host names and IP literals alike).
Each response is held for the server delay measured from the bundle's capture.pcap (as pcp delays
measures and estimates them); requests the archive lacks get a 404 and are counted. Matching: the
exact URL first, then the same path with cache-busting query parameters ignored (see replay/README.md).

--serve: serve until interrupted, printing one ready line with the page URL and the Chromium switches.
Otherwise: load the replayed page --runs times, each in a fresh headless Chromium (new profile, cold
cache), and print loadTime and domContentLoadedTime (ms from navigation start, from the page's
Navigation Timing) per run and their medians.

Shaped loads (--bandwidth, --rtt, --loss; root needed): the replay server runs inside the server
network namespace of a shaped link (shaper/: real kernel TCP through a link of that rate, round-trip
time and loss) and Chromium inside the client namespace, so every byte crosses the link.

options:
  --serve                 serve only (until SIGINT/SIGTERM)
  --port N                first port: origins listen on N, N+1, ... (default: free ports)
  --bind ADDR             address to listen on (default 127.0.0.1)
  --runs N                loads (default 5)
  --json                  print {loadTime, domContentLoadedTime, runs: [{loadTime, domContentLoadedTime}]}
  --protocol h1|h2        serve every https origin over HTTP/1.1 or HTTP/2 instead of as recorded
                          (plain http origins stay HTTP/1.1: Chromium has no cleartext HTTP/2)
  --server-delays FILE    server delays from FILE (the JSON of pcp delays) instead of the capture
  --no-server-delays      answer at once
  --pace                  send each body paced as it arrived when recorded (a trickled document,
                          a streamed response); off by default: a recording made over a real network
                          has that network's transfer time in its pauses
  --bandwidth RATE        shaped link rate, tc units: 1.6mbit, 5mbit, 1gbit
  --rtt TIME              shaped link round-trip time, tc units: 40ms, 0.15s
  --loss P                shaped link loss rate each way: 1% or 0.01 (default 0)
  --profile DIR           instead of timed loads, profile the replayed page once into the bundle DIR
                          (as pcp profile; with --bandwidth/--rtt its meta.json records the link)
  --control               with --serve: print a JSON ready line and answer 'stats'/'reset' on stdin,
                          stop when stdin ends (how shaped loads drive the server in its namespace)
  --timeout MS            cap on one load (default 60000)
  --chromium PATH         browser executable (default /usr/bin/chromium)
  -h, --help

exit status: 1 when a load fails or the bundle has no archive.
`;

export const command: Command = {
  name: 'replay',
  summary: 'serve a profiled page again from its archive and load it in Chromium',
  usage,
  async run(args) {
    const p = parse(args, {
      serve: { type: 'boolean' },
      port: { type: 'string' },
      bind: { type: 'string' },
      runs: { type: 'string' },
      json: { type: 'boolean' },
      protocol: { type: 'string' },
      'server-delays': { type: 'string' },
      'no-server-delays': { type: 'boolean' },
      timeout: { type: 'string' },
      chromium: { type: 'string' },
      control: { type: 'boolean' },
      bandwidth: { type: 'string' },
      rtt: { type: 'string' },
      loss: { type: 'string' },
      profile: { type: 'string' },
      pace: { type: 'boolean' },
    });
    const [bundle, ...extra] = p.positionals;
    if (!bundle || extra.length) throw new UsageError('expected one BUNDLE directory');
    const protocol = str(p, 'protocol');
    if (protocol !== undefined && protocol !== 'h1' && protocol !== 'h2') throw new UsageError(`--protocol expects h1 or h2, got '${protocol}'`);
    const port = num(p, 'port', 0);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError('--port expects a port number');
    const runs = positiveInt(p, 'runs', 5);
    const timeoutMs = num(p, 'timeout', 60_000);
    const control = flag(p, 'control');
    if (control && !flag(p, 'serve')) throw new UsageError('--control goes with --serve');
    const shaped = linkSpec(p);
    if (shaped && flag(p, 'serve')) throw new UsageError('--serve does not take --bandwidth/--rtt/--loss (shaped loads run the server inside the link)');
    if (str(p, 'profile') !== undefined && flag(p, 'serve')) throw new UsageError('--profile and --serve do not go together');

    const { assignDelays, startReplayServer, loadOnce, summarise } = await import('@pcp/replay');
    const archive = await readBundleArchive(bundle);
    const noDelays = flag(p, 'no-server-delays');
    const records = await serverDelays(bundle, str(p, 'server-delays'), noDelays);
    const d = assignDelays(archive.entries, records);
    const delayNote = records.length ? `server delays: ${d.measured} measured, ${d.estimated} estimated, ${d.none} none`
      : `server delays: none (${noDelays ? '--no-server-delays' : 'the bundle has no capture.pcap'})`;


    if (flag(p, 'serve')) {
      const server = await startReplayServer(archive, { bind: str(p, 'bind'), basePort: port || undefined, protocol: protocol as 'h1' | 'h2' | undefined, pace: flag(p, 'pace') });
      if (control) {
        // Driven by a parent over stdio (shaped loads); ends when the parent closes stdin.
        const { runControlled } = await import('@pcp/replay');
        await runControlled(server, process.stdin, process.stdout);
        return 0;
      }
      const onSignal = (): void => {
        const s = server.stats;
        console.error(`replay stopped: ${s.requests} requests, ${s.matched.exact} exact, ${s.matched.query} by query, ${s.misses.length} misses (+${s.faviconMisses} unrecorded favicon), ${s.emptyBodies} served with an empty body (not recorded)`);
        void server.close().then(() => process.exit(130));
      };
      process.once('SIGINT', onSignal);
      process.once('SIGTERM', onSignal);
      warnH2(protocol, server.origins);
      const list = server.origins.map((o) => `${o.origin} -> ${o.served} :${o.listenPort}`).join(', ');
      console.log(`replaying ${server.pageUrl} (${server.origins.length} origins: ${list}; ${archive.entries.length} responses; ${delayNote}); load it with: chromium ${server.chromiumArgs.map(shellQuote).join(' ')} ${shellQuote(server.pageUrl)}`);
      await new Promise<void>(() => {});
    }

    const profileDir = str(p, 'profile');
    if (profileDir) {
      // One traced load of the replayed page into a new bundle, the link's conditions in its meta.json.
      const { meta, stats, origins } = await profileReplay(bundle, profileDir, { shaped, records: noDelays ? [] : records, protocol: protocol as 'h1' | 'h2' | undefined, pace: flag(p, 'pace'), chromium: str(p, 'chromium'), timeoutMs });
      warnH2(protocol, origins);
      const line = `${meta.status}: ${meta.url} replayed — ${meta.endReason}: ${meta.message}; ${stats.requests} requests, ${stats.misses.length} misses`;
      if (meta.status === 'failed') throw new CliError(`${line} (bundle: ${profileDir})`);
      console.log(`${line}\nbundle: ${profileDir}`);
      return 0;
    }

    const { localTarget, shapedTarget } = await import('@pcp/replay');
    const proto = protocol as 'h1' | 'h2' | undefined;
    const target = shaped
      ? await shapedTarget(bundle, shaped, { pcpBin: PCP_BIN, records: noDelays ? [] : records, protocol: proto, pace: flag(p, 'pace') })
      : await localTarget(archive, proto, flag(p, 'pace'));
    try {
      warnH2(protocol, target.origins);
      if (shaped) console.error(`shaped link: ${shaped.text} (${target.note})`);
      const results = [];
      for (let i = 0; i < runs; i++) {
        await target.reset();
        const t = await loadOnce(target.pageUrl, { chromiumArgs: target.chromiumArgs, executablePath: str(p, 'chromium'), timeoutMs, wrap: target.wrap }).catch((e: Error) => {
          throw new CliError(`run ${i + 1}: ${e.message}`);
        });
        results.push(t);
        const s = await target.stats();
        const misses = s.misses.length ? `, ${s.misses.length} misses (${s.misses.slice(0, 3).map((m) => m.url).join(' ')}${s.misses.length > 3 ? ' ...' : ''})` : ', 0 misses';
        const line = `run ${i + 1}: load ${t.loadTime.toFixed(1)} ms, DOMContentLoaded ${t.domContentLoadedTime.toFixed(1)} ms; ${s.requests} requests${misses}`;
        if (flag(p, 'json')) console.error(line);
        else console.log(line);
      }
      const sum = summarise(results);
      if (flag(p, 'json')) console.log(JSON.stringify(sum));
      else console.log(`median of ${runs}: load ${sum.loadTime} ms, DOMContentLoaded ${sum.domContentLoadedTime} ms (${delayNote})`);
      return 0;
    } finally {
      await target.close();
    }
  },
};

function warnH2(protocol: string | undefined, origins: readonly { scheme: string }[]): void {
  if (protocol === 'h2' && origins.some((o) => o.scheme === 'http')) {
    console.error('warning: --protocol h2 applies to https origins only; plain http origins stay HTTP/1.1');
  }
}

function shellQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
