/**
 * What-if: runs the emulator (@pcp/emulator) on an open graph under options chosen in the panel.
 * Options are the emulator's own tc-style strings (e.g. bandwidth "10mbit", rtt "80ms"), parsed by its
 * parseEmulatorOptions so the viewer and `pcp emulate` accept exactly the same words.
 */
import type { Graph } from '@pcp/graph-builder';

export interface SimulatedResource {
  id: string;
  url: string;
  queued: number;
  handshake: number;
  request: number;
  serverDelay: number;
  serverBuffer: number;
  transfer: number;
  start: number;
  end: number;
}

export interface SimulationResult {
  loadTime: number;
  domContentLoadedTime: number;
  endTime: number;
  resources: SimulatedResource[];
  nodes: { id: string; start: number; end: number }[];
  drops: number;
  retransmissions: number;
}

interface EmulatorModule {
  parseEmulatorOptions?: (opts: Record<string, string | undefined>) => unknown;
  simulate?: (graph: Graph, config: unknown) => SimulationResult | Promise<SimulationResult>;
}

/** Raised for bad options: the client shows the message next to the form. */
export class WhatIfInputError extends Error {}
export class EmulatorUnavailable extends Error {}

let emulator: Promise<EmulatorModule> | null = null;

async function loadEmulator(): Promise<Required<EmulatorModule>> {
  // A computed specifier: the emulator package is optional at typecheck time while it is being built.
  const spec = '@pcp/emulator';
  emulator ??= import(spec).catch(() => ({}) as EmulatorModule) as Promise<EmulatorModule>;
  const mod = await emulator;
  if (typeof mod.simulate !== 'function' || typeof mod.parseEmulatorOptions !== 'function') {
    emulator = null; // try again next time: it may land while the viewer runs in development
    throw new EmulatorUnavailable('the emulator (@pcp/emulator simulate) is not available in this build');
  }
  return mod as Required<EmulatorModule>;
}

export async function runWhatIf(graph: Graph, options: Record<string, string | undefined>): Promise<SimulationResult> {
  const mod = await loadEmulator();
  let config: unknown;
  try {
    config = mod.parseEmulatorOptions(options);
  } catch (e) {
    throw new WhatIfInputError((e as Error).message);
  }
  return await mod.simulate(graph, config);
}
