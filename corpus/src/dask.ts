/**
 * The Python Dask drivers (corpus/python/pcp_corpus/: dask_build.py for `pcp corpus build --scheduler`,
 * dask_sweep.py for `pcp sweep --scheduler`) run as a child tied to this process, fed the job as JSON on
 * stdin; their JSON lines on stdout come back as events.
 */
import { fileURLToPath } from 'node:url';
import { spawnTied } from '@pcp/profiler';
import type { CorpusManifest, PageStatus } from './layout.ts';

export interface DaskJob {
  /** `tcp://HOST:8786`, or `local:N` for a LocalCluster of N worker processes. */
  scheduler: string;
  /** The corpus: a local path or an fsspec URL (file://, s3://, ...) every worker can write to. */
  out: string;
  sites: { url: string; id: string }[];
  manifest: CorpusManifest;
  siteList: string;
  /** The argv of `pcp` on the workers (the one-site unit is `pcp corpus build-site`). */
  pcp: string[];
  siteArgs: string[];
  /** Times Dask reruns a task that raised (the unit crashed); a dead worker's task is rescheduled anyway. */
  taskRetries?: number;
}

export type DaskEvent = { event: 'site'; status: PageStatus; skipped: boolean } | { event: 'done'; failures: number };

const PYTHON_DIR = fileURLToPath(new URL('../python', import.meta.url));

/** `local:N` or a `tcp://`/`tls://` address; a one-line error otherwise. */
export function checkScheduler(s: string): string {
  if (/^local:[1-9]\d*$/.test(s) || /^(tcp|tls|ws|wss|inproc|ucx):\/\/\S+$/.test(s)) return s;
  throw new Error(`--scheduler expects tcp://HOST:PORT or local:N, got '${s}'`);
}

export function runDaskBuild(job: DaskJob, onEvent: (e: DaskEvent) => void): Promise<void> {
  return runDaskDriver('pcp_corpus.dask_build', job, onEvent);
}

/** Runs `python -m MODULE` with the job on stdin, each JSON line it prints passed to onEvent; a one-line error when it fails. */
export function runDaskDriver<E>(module: string, job: unknown, onEvent: (e: E) => void): Promise<void> {
  const python = process.env['PYTHON'] ?? 'python3';
  return new Promise((done, fail) => {
    const child = spawnTied(python, ['-m', module], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, PYTHONPATH: [PYTHON_DIR, process.env['PYTHONPATH']].filter(Boolean).join(':') },
    });
    let out = '';
    let error: string | undefined;
    let err = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      const lines = (out + chunk).split('\n');
      out = lines.pop() ?? '';
      for (const line of lines) if (line.startsWith('{')) onEvent(JSON.parse(line) as E);
    });
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      err = (err + chunk).slice(-20_000);
      for (const line of chunk.split('\n')) if (line.startsWith('error: ')) error = line.slice(7);
    });
    child.on('error', (e) => fail(new Error(`cannot run ${python}: ${e.message}`)));
    child.on('close', (code) => {
      if (code === 0) return done();
      const missing = /No module named '?(dask|distributed|fsspec|pcp_corpus)/.exec(err);
      if (missing) return fail(new Error(`the Dask driver needs Python packages: pip install -e 'corpus/python' (${missing[0]})`));
      fail(new Error(error ?? `the Dask driver exited with ${code}: ${err.trim().split('\n').pop() ?? ''}`));
    });
    child.stdin!.end(JSON.stringify(job));
  });
}
