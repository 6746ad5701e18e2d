import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
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

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** Runs `python -m server_delays`, passing stderr through; resolves with its exit code and last error line. */
export async function runPython(args: string[]): Promise<{ code: number; error: string | undefined }> {
  const { spawnTied } = await import('@pcp/profiler/child.ts');
  const python = process.env['PYTHON'] ?? 'python3';
  return new Promise((done, fail) => {
    const child = spawnTied(python, ['-m', 'server_delays', ...args], {
      stdio: ['ignore', 'inherit', 'pipe'],
      env: { ...process.env, PYTHONPATH: [join(repoRoot, 'server-delays', 'src'), process.env['PYTHONPATH']].filter(Boolean).join(':') },
    });
    let error: string | undefined;
    let tail = '';
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      const lines = (tail + chunk).split('\n');
      tail = lines.pop() ?? '';
      for (const line of lines) {
        if (line.startsWith('error: ')) error = line.slice(7);
        else if (line.startsWith('Traceback') || /^\s|^[A-Za-z]+Error/.test(line)) error ??= line.trim();
        else process.stderr.write(`${line}\n`);
      }
    });
    child.on('error', (e) => fail(new CliError(`cannot run ${python}: ${e.message}`)));
    child.on('close', (code) => {
      if (tail.startsWith('error: ')) error = tail.slice(7);
      done({ code: code ?? 1, error });
    });
  });
}

/** `pcp delays BUNDLE_DIR --out FILE --format json`, throwing the one-line reason when it fails. */
export async function measureDelays(bundleDir: string, outFile: string): Promise<void> {
  const { code, error } = await runPython([bundleDir, '--out', outFile, '--format', 'json']);
  if (code !== 0) throw new CliError(error ?? `server_delays exited with ${code}`);
}

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
    const { code, error } = await runPython(pass);
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
