/**
 * What-if: runs the emulator (@pcp/emulator) on an open graph under options chosen in the panel.
 * Options are the emulator's own tc-style strings (e.g. bandwidth "10mbit", rtt "80ms"), parsed by its
 * parseEmulatorOptions so the viewer and `pcp emulate` accept exactly the same words.
 */
import type { Graph } from '@pcp/graph-builder';
import type { SimResult } from '@pcp/emulator';

export type SimulationResult = SimResult;
export type SimulatedResource = SimResult['resources'][number];

/** Raised for bad options: the client shows the message next to the form. */
export class WhatIfInputError extends Error {}

export async function runWhatIf(graph: Graph, options: Record<string, string | undefined>): Promise<SimulationResult> {
  // Loaded on first use: `pcp view` starts without the simulator's modules.
  const { parseEmulatorOptions, simulate, ConfigError } = await import('@pcp/emulator');
  // Trace options name files on this machine: not something a page in the browser may choose.
  for (const k of ['downlink-trace', 'uplink-trace']) if (options[k] !== undefined) throw new WhatIfInputError(`${k} reads a file on the server: use pcp emulate for link traces`);
  let config;
  try {
    config = parseEmulatorOptions(options);
  } catch (e) {
    if (e instanceof ConfigError) throw new WhatIfInputError(e.message);
    throw e;
  }
  try {
    return simulate(graph, config);
  } catch (e) {
    // Option combinations the simulator rejects are input errors too.
    if (e instanceof ConfigError) throw new WhatIfInputError(e.message);
    throw e;
  }
}
