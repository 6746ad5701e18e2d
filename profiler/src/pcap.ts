/**
 * tcpdump for the duration of one load. The interface is the one the page's traffic takes: `lo`
 * when the URL's host resolves (or is mapped by --host-resolver-rules) to loopback, otherwise the
 * interface of the route to the resolved address.
 */
import { execFileSync, type ChildProcess } from 'node:child_process';
import { spawnTied } from './child.ts';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

export interface PcapCapture {
  interface: string;
  stop(): Promise<{ packets?: number; message: string }>;
}

function isLoopback(ip: string): boolean {
  return ip.startsWith('127.') || ip === '::1';
}

/**
 * The IP a host name goes to, honouring simple `MAP pattern ip` host resolver rules; a pattern may carry a
 * port (`MAP host:443 127.0.0.1:4711`, as the replay writes them), and the first matching rule decides:
 * `~NOTFOUND` (no address) gives undefined.
 */
export function mappedAddress(host: string, hostResolverRules: string | undefined): string | undefined {
  if (!hostResolverRules) return undefined;
  for (const rule of hostResolverRules.split(',')) {
    const m = /^\s*MAP\s+(\S+)\s+(\S+)\s*$/i.exec(rule);
    if (!m?.[1] || !m[2]) continue;
    const pattern = m[1].replace(/:(\d+|\*)$/, '');
    const re = new RegExp('^' + pattern.split('*').map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*') + '$', 'i');
    if (re.test(host)) return m[2].startsWith('~') ? undefined : m[2].replace(/:\d+$/, '');
  }
  return undefined;
}

export async function pickInterface(url: string, hostResolverRules?: string): Promise<string> {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  let ip = mappedAddress(host, hostResolverRules) ?? (isIP(host) ? host : undefined);
  if (!ip) {
    try {
      ip = (await lookup(host)).address;
    } catch {
      return 'any';
    }
  }
  if (isLoopback(ip) || host === 'localhost') return 'lo';
  try {
    const out = execFileSync('ip', ['route', 'get', ip], { encoding: 'utf8' });
    return /\bdev\s+(\S+)/.exec(out)?.[1] ?? 'any';
  } catch {
    return 'any';
  }
}

export async function startPcap(file: string, iface: string, filter?: string): Promise<PcapCapture> {
  // -Z root: tcpdump otherwise drops to its own user, which clears the death signal (child.ts).
  const args = ['-i', iface, '-s', '0', '-U', '-n', '-Z', 'root', '-w', file];
  if (filter) args.push(...filter.split(/\s+/).filter(Boolean));
  let proc: ChildProcess;
  try {
    proc = spawnTied('tcpdump', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (e) {
    throw new Error(`cannot run tcpdump: ${(e as Error).message}`);
  }
  let err = '';
  proc.stderr?.setEncoding('utf8');
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`tcpdump did not start within 10 s: ${err.trim()}`)), 10_000);
    proc.once('error', (e) => {
      clearTimeout(timer);
      reject(new Error(`cannot run tcpdump (${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'not installed' : e.message})`));
    });
    proc.stderr?.on('data', (d: string) => {
      err += d;
      // tcpdump says "listening on <if>" once the capture is armed.
      if (/listening on/.test(err)) {
        clearTimeout(timer);
        resolve();
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`tcpdump exited (${code}): ${err.trim().split('\n').pop() ?? ''} (capturing needs root or CAP_NET_RAW)`));
    });
  });
  return {
    interface: iface,
    async stop() {
      proc.kill('SIGINT');
      const timer = setTimeout(() => proc.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
      const m = /(\d+) packets? captured/.exec(err);
      return { packets: m?.[1] ? Number(m[1]) : undefined, message: err.trim().split('\n').slice(-3).join('; ') };
    },
  };
}
