/**
 * simulate() with the invariants checked on every result (streams recorded), for scripts whose tables come from
 * thousands of simulations (emulate:thesis, emulate:goel): each violation is printed as it is found, and at exit
 * one line counts the simulations checked and those with violations (exit status 1 when any).
 */
import type { Graph } from '@pcp/graph-builder';
import type { EmulatorConfig } from './config.ts';
import { checkInvariants } from './invariants.ts';
import { simulate, type SimResult } from './simulator.ts';

export interface InvariantTally {
  simulations: number;
  violating: number;
}

const tally: InvariantTally = { simulations: 0, violating: 0 };
let reportAtExit = false;

/** The simulations checkedSimulate checked so far in this process, and how many broke an invariant. */
export function invariantTally(): Readonly<InvariantTally> {
  return tally;
}

export function checkedSimulate(graph: Graph, config: EmulatorConfig): SimResult {
  if (!reportAtExit) {
    reportAtExit = true;
    process.once('exit', () => {
      console.log(`invariants: ${tally.simulations} simulations checked, ${tally.violating} with violations`);
      if (tally.violating > 0) process.exitCode = 1;
    });
  }
  const r = simulate(graph, config, { recordStreams: true });
  const bad = checkInvariants(graph, config, r);
  tally.simulations++;
  if (bad.length) {
    tally.violating++;
    const shown = JSON.stringify(config, (_k, v: unknown) => (ArrayBuffer.isView(v) ? `(${(v as Float64Array).length} values)` : v));
    console.error(`invariants violated, ${graph.page.url} (${graph.nodes.length} nodes) under ${shown}:\n  ${bad.join('\n  ')}`);
  }
  return r;
}
