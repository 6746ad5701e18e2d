/**
 * Replay through a shaped link (shaper/): the replay server runs as a child process inside the link's
 * server namespace, listening on the link's server address, and Chromium runs in the client namespace
 * with host-resolver-rules mapping every recorded host:port (names and IP literals alike) to that
 * address, so every byte of the page crosses the link's rate, delay and loss. No iptables rule is
 * needed: Chromium's host mapping rewrites IP-literal origins too.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { ShapedLink } from '@pcp/shaper';
import { ControlClient, type ReadyMessage } from './control.ts';
import type { ReplayStats } from './server.ts';

export interface RemoteReplay {
  ready: ReadyMessage;
  stats(): Promise<ReplayStats>;
  /** The server's freshStart in the child (control's `reset`): counts zeroed, open connections closed. */
  freshStart(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts `node <pcp> replay BUNDLE --serve --control --bind <serverAddr> ...serveArgs` in the server
 * namespace and waits for its ready line.
 */
export async function startRemoteReplay(link: ShapedLink, pcpBin: string, bundle: string, serveArgs: string[]): Promise<RemoteReplay> {
  const { cmd, args } = link.wrap('server', process.execPath, [pcpBin, 'replay', bundle, '--serve', '--control', '--bind', link.serverAddr, ...serveArgs]);
  const child: ChildProcess = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (d: string) => {
    stderr = (stderr + d).slice(-2000);
  });
  const exited = new Promise<string>((resolve) => {
    child.once('exit', (code, sig) => resolve(`${sig ?? `exit ${code}`}${stderr.trim() ? `: ${stderr.trim().split('\n').slice(-1)[0]}` : ''}`));
    child.once('error', (e) => resolve(e.message));
  });
  const control = new ControlClient(child.stdin!, child.stdout!, exited);
  const close = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.stdin!.end();
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  };
  let ready: ReadyMessage;
  try {
    ready = await control.ready;
  } catch (e) {
    await close();
    throw e;
  }
  return { ready, stats: () => control.stats(), freshStart: () => control.reset(), close };
}
