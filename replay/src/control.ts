/**
 * A replay server run as a child process (e.g. inside a shaped link's server namespace) and driven
 * over its stdio with JSON lines. The child prints `{"ready": {...}}` once listening, then answers
 * `stats` with `{"stats": {...}}` and `reset` (counts restarted, open connections closed) with `{"reset": true}`; when its stdin ends (the
 * parent exited or closed it) it stops the server and exits, so it never outlives its parent.
 */
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import type { ReplayServer, ReplayStats, ServedOrigin } from './server.ts';

export interface ReadyMessage {
  pageUrl: string;
  origins: ServedOrigin[];
  hostResolverRules: string;
  chromiumArgs: string[];
  spkiHash?: string;
}

/** Serves the control protocol until `input` ends, then closes the server. */
export async function runControlled(server: ReplayServer, input: Readable, output: Writable): Promise<void> {
  const send = (msg: unknown): void => {
    output.write(JSON.stringify(msg) + '\n');
  };
  const ready: ReadyMessage = { pageUrl: server.pageUrl, origins: server.origins, hostResolverRules: server.hostResolverRules, chromiumArgs: server.chromiumArgs, spkiHash: server.spkiHash };
  send({ ready });
  const lines = createInterface({ input });
  for await (const line of lines) {
    const cmd = line.trim();
    if (cmd === 'stats') send({ stats: server.stats });
    else if (cmd === 'reset') {
      server.freshStart();
      send({ reset: true });
    } else if (cmd) send({ error: `unknown command '${cmd}'` });
  }
  await server.close();
}

/** The parent's side: one request, one answer, in order. */
export class ControlClient {
  private readonly waiting: ((msg: Record<string, unknown>) => void)[] = [];
  readonly ready: Promise<ReadyMessage>;

  constructor(private readonly toChild: Writable, fromChild: Readable, exited: Promise<string>) {
    const lines = createInterface({ input: fromChild });
    let onReady!: (r: ReadyMessage) => void;
    let onFail!: (e: Error) => void;
    this.ready = new Promise<ReadyMessage>((resolve, reject) => {
      onReady = resolve;
      onFail = reject;
    });
    lines.on('line', (line) => {
      let msg: Record<string, unknown>;
      try {
        msg = JSON.parse(line) as Record<string, unknown>;
      } catch {
        return; // not ours (a warning line)
      }
      if (msg.ready) onReady(msg.ready as ReadyMessage);
      else this.waiting.shift()?.(msg);
    });
    void exited.then((why) => onFail(new Error(`the replay server exited before it was ready: ${why}`)));
  }

  private ask(cmd: string): Promise<Record<string, unknown>> {
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      this.toChild.write(cmd + '\n');
    });
  }

  async stats(): Promise<ReplayStats> {
    return (await this.ask('stats')).stats as ReplayStats;
  }

  async reset(): Promise<void> {
    await this.ask('reset');
  }
}
