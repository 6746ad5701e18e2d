import { existsSync } from 'node:fs';
import { parse, str, flag, CliError, UsageError, type Command } from '../kit.ts';

const USAGE = `
usage: pcp delays BUNDLE_DIR --out FILE [options]
       pcp delays CAPTURE.pcap [--bundle BUNDLE_DIR] --out FILE [options]

Per-request server processing delays (thesis §3.4.1) from the packet capture of a profile: for each
request, the time between the server's ACK of the request and the first byte of its response.
Cleartext HTTP/1.x is paired on the wire; HTTPS is decrypted through tshark when the bundle has a TLS
key log (tls-keys.log), else matched per host in order of first response byte. Resources without a
measurement (errors, redirects, unseen connections) get a delay drawn from the same host's delays of
the same MIME type, else from the per-MIME (and POST) CDFs; draws are seeded.

A bundle is a profiler output directory: a DevTools log (JSON list of {method, params} Network
events), capture.pcap, optionally tls-keys.log. With a bundle, one record per resource of the log;
with a bare capture, one record per HTTP exchange seen.

Records: method, host, url, size, delayMs, mimeType, extType, tls, cached, estimated (+ status, source).
Annotate a graph with them: pcp build ... --server-delays FILE.

options:
  --out FILE          where to write (required)
  --format FMT        json (default) or tsv (the legacy corpus delays layout, seconds)
  --cdf OUTDIR        also write <Class>DelaysCDF.dist files (legacy CDF layout) of the measured delays
  --seed N            seed of the estimation draws (default 1)
  --bundle DIR        the bundle whose resources to annotate (when the input is a capture)
  --keylog FILE       TLS key log (default: the bundle's)
  --no-tshark         do not decrypt; match HTTPS delays by order
  --fallback-cdf DIR  CDFs for MIME classes this capture has no measurements of
                      (default: ../shared/legacy-corpus/server-delay-cdfs, or $PCP_SHARED)
  -h, --help

Runs the Python package in server-delays/ (python3, or $PYTHON): pip install -e 'server-delays[dev]'.
`;

export const command: Command = {
  name: 'delays',
  summary: 'server processing delays per request from a profile bundle or pcap (thesis §3.4.1)',
  usage: USAGE,
  async run(args) {
    const p = parse(args, {
      out: { type: 'string' }, format: { type: 'string' }, cdf: { type: 'string' }, seed: { type: 'string' },
      bundle: { type: 'string' }, keylog: { type: 'string' }, 'no-tshark': { type: 'boolean' },
      'fallback-cdf': { type: 'string' },
    });
    const [input, ...extra] = p.positionals;
    if (!input || extra.length) throw new UsageError('expected one BUNDLE_DIR or capture file');
    const out = str(p, 'out');
    if (!out) throw new UsageError('--out is required');
    const format = str(p, 'format') ?? 'json';
    if (format !== 'json' && format !== 'tsv') throw new UsageError(`--format must be json or tsv, not '${format}'`);
    const seed = str(p, 'seed');
    if (seed !== undefined && !/^-?\d+$/.test(seed)) throw new UsageError(`--seed expects an integer, got '${seed}'`);
    if (!existsSync(input)) throw new CliError(`${input} does not exist`);
    const bundle = str(p, 'bundle');
    if (bundle && !existsSync(bundle)) throw new CliError(`bundle ${bundle} does not exist`);
    const pass = [input, '--out', out, '--format', format];
    for (const name of ['cdf', 'seed', 'bundle', 'keylog', 'fallback-cdf'] as const) {
      const v = str(p, name);
      if (v !== undefined) pass.push(`--${name}`, v);
    }
    if (flag(p, 'no-tshark')) pass.push('--no-tshark');
    const { runServerDelays } = await import('@pcp/graph-builder');
    const { code, error } = await runServerDelays(pass);
    if (code === 2) throw new UsageError(error ?? 'bad arguments');
    if (code !== 0) {
      if (error?.includes('No module named server_delays')) {
        throw new CliError("the server_delays Python package is missing: pip install -e 'server-delays[dev]'");
      }
      throw new CliError(error ?? `server_delays exited with ${code}`);
    }
    return 0;
  },
};
