/**
 * Launching Debian's Chromium for one capture: headless, a fresh user-data-dir (cold cache),
 * background networking and component updates off, and the DevTools Protocol on a pipe.
 */
import type { ChildProcess } from 'node:child_process';
import { spawnTied } from './child.ts';
import { accessSync, constants, rmSync } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import { CdpConnection } from './cdp.ts';
import { makeProfileDir, reapStaleProfileDirs } from './profile-dirs.ts';
import { withTimeout } from './timeout.ts';

export const DEFAULT_CHROMIUM = '/usr/bin/chromium';

export interface LaunchOptions {
  executablePath?: string;
  viewport?: { width: number; height: number };
  userAgent?: string;
  hostResolverRules?: string;
  ignoreCertificateErrors?: boolean;
  /** File Chromium appends its TLS session keys to (NSS key log format). */
  sslKeyLogFile?: string;
  /**
   * Site isolation (default true: Chromium's own process model, each cross-site frame in a renderer of
   * its own). false: `--disable-site-isolation-trials`, cross-site iframes in their parent's renderer,
   * as browsers before 2018 ran them (the legacy corpus' Chromium ~52).
   */
  siteIsolation?: boolean;
  /** More switches, appended last. */
  extraArgs?: string[];
  /** Start the browser through this, e.g. inside a network namespace (a shaped link's wrap('client', ...)). */
  wrap?: (cmd: string, args: string[]) => { cmd: string; args: string[] };
}

export interface LaunchedBrowser {
  cdp: CdpConnection;
  process: ChildProcess;
  /** The full command line, executable first. */
  commandLine: string[];
  userDataDir: string;
  /** Last lines Chromium wrote on stderr (for crash reports). */
  stderrTail(): string;
  close(): Promise<void>;
}

export class BrowserMissingError extends Error {}

export function checkExecutable(path: string): void {
  try {
    accessSync(path, constants.X_OK);
  } catch {
    throw new BrowserMissingError(`Chromium not found or not executable at ${path} (install the 'chromium' package or pass --chromium PATH)`);
  }
}

/** The switch that puts cross-site iframes in their parent's renderer (checked: no iframe target is attached then). */
export const NO_SITE_ISOLATION_SWITCH = '--disable-site-isolation-trials';
/**
 * Chromium isolates Google sign-in's origin (https://accounts.google.com, the Gaia origin) as a built-in isolated
 * origin even with site isolation off (ChromeContentBrowserClient::GetOriginsRequiringDedicatedProcess, desktop):
 * checked on Chromium 156, an accounts.google.com iframe stays an iframe target under NO_SITE_ISOLATION_SWITCH alone.
 * Moving the Gaia origin to a host no page uses (`--gaia-url`) ends that: 2016's browser isolated no origin.
 */
export const NO_GAIA_ISOLATION_SWITCH = '--gaia-url=https://gaia.invalid';
/** The switches of the 2016 process model: every cross-site iframe in its parent's renderer. */
export const NO_SITE_ISOLATION_SWITCHES = [NO_SITE_ISOLATION_SWITCH, NO_GAIA_ISOLATION_SWITCH] as const;

export function chromiumArgs(opts: LaunchOptions, userDataDir: string): string[] {
  const vp = opts.viewport ?? { width: 1280, height: 800 };
  const args = [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-dev-shm-usage',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-default-apps',
    '--disable-extensions',
    '--disable-domain-reliability',
    '--disable-client-side-phishing-detection',
    '--no-first-run',
    '--no-default-browser-check',
    '--disable-quic',
    '--mute-audio',
    '--remote-debugging-pipe',
    `--user-data-dir=${userDataDir}`,
    `--window-size=${vp.width},${vp.height}`,
  ];
  if (opts.userAgent) args.push(`--user-agent=${opts.userAgent}`);
  if (opts.hostResolverRules) args.push(`--host-resolver-rules=${opts.hostResolverRules}`);
  if (opts.ignoreCertificateErrors) args.push('--ignore-certificate-errors');
  if (opts.sslKeyLogFile) args.push(`--ssl-key-log-file=${opts.sslKeyLogFile}`);
  if (opts.siteIsolation === false) args.push(...NO_SITE_ISOLATION_SWITCHES);
  args.push(...(opts.extraArgs ?? []), 'about:blank');
  return args;
}

export async function launchChromium(opts: LaunchOptions = {}): Promise<LaunchedBrowser> {
  const exe = opts.executablePath ?? DEFAULT_CHROMIUM;
  checkExecutable(exe);
  reapStaleProfileDirs();
  const userDataDir = makeProfileDir();
  const args = chromiumArgs(opts, userDataDir);
  const env: NodeJS.ProcessEnv = { ...process.env };
  // Chromium reads SSLKEYLOGFILE too; only the explicit switch should decide where keys go.
  delete env.SSLKEYLOGFILE;
  const launch = opts.wrap ? opts.wrap(exe, args) : { cmd: exe, args };
  const proc = spawnTied(launch.cmd, launch.args, { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'], env, detached: false });
  let tail = '';
  proc.stderr?.setEncoding('utf8');
  proc.stderr?.on('data', (d: string) => {
    tail = (tail + d).slice(-4000);
  });
  const cdp = new CdpConnection(proc.stdio[3] as Writable, proc.stdio[4] as Readable);
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  const spawnError = new Promise<never>((_, reject) => proc.once('error', (e) => reject(e)));
  // Best effort: helper processes may still be writing the profile for a moment after the browser
  // exits; a leftover temp dir must never turn a good capture into a failure.
  const cleanup = (): void => {
    try {
      rmSync(userDataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    } catch {
      setTimeout(() => {
        try {
          rmSync(userDataDir, { recursive: true, force: true, maxRetries: 5 });
        } catch {
          // Left in the temp dir; nothing depends on it.
        }
      }, 2000).unref();
    }
  };
  try {
    // The first answer proves the browser is up and the pipe works. Generous: on a machine shared by
    // many jobs (load average 80 on 2 cores seen) a healthy start has taken over 30 s.
    await withTimeout(Promise.race([cdp.send('Browser.getVersion'), spawnError]), 90_000, 'Chromium did not answer on the DevTools pipe within 90 s');
  } catch (e) {
    proc.kill('SIGKILL');
    await exited;
    cleanup();
    throw new Error(`could not start Chromium: ${(e as Error).message}${tail ? `; stderr: ${tail.trim().split('\n').slice(-3).join(' | ')}` : ''}`);
  }
  return {
    cdp,
    process: proc,
    commandLine: [launch.cmd, ...launch.args],
    userDataDir,
    stderrTail: () => tail,
    async close(): Promise<void> {
      if (proc.exitCode === null && proc.signalCode === null) {
        cdp.send('Browser.close').catch(() => {});
        const timer = setTimeout(() => proc.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(timer);
      }
      // Helper processes may outlive the browser for a moment holding the pipe's other end open.
      for (const stream of proc.stdio) stream?.destroy();
      cleanup();
    },
  };
}
