/**
 * The helper every emulator test simulates through: runs the simulation twice (same seed must give the
 * same result), checks the invariants (each response stream's bytes included), and fails loudly with the list of violations.
 */
import { deepStrictEqual } from 'node:assert/strict';
import type { Graph } from '@pcp/graph-builder';
import type { EmulatorConfig } from '../config.ts';
import { checkInvariants } from '../invariants.ts';
import { simulate, type SimResult } from '../simulator.ts';

export function simulateChecked(graph: Graph, config: EmulatorConfig): SimResult {
  const a = simulate(graph, config, { recordStreams: true });
  const b = simulate(graph, config, { recordStreams: true });
  deepStrictEqual(b, a, 'same graph, config and seed must give the same result');
  const bad = checkInvariants(graph, config, a);
  if (bad.length) throw new Error(`invariants violated (${config.protocol} ${config.bandwidthBps}bps ${config.rttMs}ms):\n  ${bad.join('\n  ')}`);
  return a;
}

export function timingOf(r: SimResult, id: string): SimResult['resources'][number] {
  const t = r.resources.find((x) => x.id === id);
  if (!t) throw new Error(`no timing for resource ${id}`);
  return t;
}
