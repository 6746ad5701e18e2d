/**
 * A sweep worker thread: simulates one graph under a list of (config, run) tasks and posts one CSV row per
 * task, or one error message when the graph cannot be loaded or simulated.
 */
import { parentPort } from 'node:worker_threads';
import { loadGraph } from '@pcp/graph-builder';
import type { EmulatorConfig } from '../config.ts';
import { simulate } from '../simulator.ts';

export interface SweepJob {
  graph: string;
  tasks: Array<{ config: EmulatorConfig; configKey: string; run: number; seed: number; prefix: string }>;
}

export type SweepMessage = { kind: 'row'; graph: string; row: string } | { kind: 'error'; graph: string; message: string; remaining: number } | { kind: 'idle' };

const port = parentPort;
if (port) {
  port.on('message', (job: SweepJob) => {
    let done = 0;
    try {
      const graph = loadGraph(job.graph);
      for (const t of job.tasks) {
        const r = simulate(graph, { ...t.config, seed: t.seed });
        const vals = [r.loadTime, r.domContentLoadedTime, r.endTime, r.drops, r.retransmissions, r.packets, r.connections].map((v) => (Number.isInteger(v) ? String(v) : v.toFixed(3)));
        port.postMessage({ kind: 'row', graph: job.graph, row: `${t.prefix},${t.run},${t.seed},${vals.join(',')}` } satisfies SweepMessage);
        done++;
      }
    } catch (e) {
      port.postMessage({ kind: 'error', graph: job.graph, message: (e as Error).message.split('\n')[0] ?? '', remaining: job.tasks.length - done } satisfies SweepMessage);
    }
    port.postMessage({ kind: 'idle' } satisfies SweepMessage);
  });
}
