/**
 * What-if: runs the emulator (@pcp/emulator) on an open graph under options chosen in the panel.
 * Options are the emulator's own tc-style strings (e.g. bandwidth "10mbit", rtt "80ms"), merged with the
 * panel's `KEY=VALUE` pairs by the emulator's optionPairs and parsed by its parseEmulatorOptions, as
 * `pcp emulate` does, so the viewer and the command accept exactly the same words and give the same result.
 */
import type { Graph } from '@pcp/graph-builder';
import type { SimResult } from '@pcp/emulator';
import type { WhatIfRequest } from '../shared/whatifFields.ts';

export type SimulationResult = SimResult;
export type SimulatedResource = SimResult['resources'][number];

/** Raised for bad options: the client shows the message next to the form. */
export class WhatIfInputError extends Error {}

/** The options naming a link trace file, and the field the uploaded trace fills instead: the config's, or its second path's. */
const TRACE_FIELDS = {
  'downlink-trace': { path2: false, field: 'downlinkTrace' },
  'uplink-trace': { path2: false, field: 'uplinkTrace' },
  'path2-downlink-trace': { path2: true, field: 'downlinkTrace' },
  'path2-uplink-trace': { path2: true, field: 'uplinkTrace' },
} as const satisfies Record<string, { path2: boolean; field: 'downlinkTrace' | 'uplinkTrace' }>;

export type WhatIfInput = Pick<WhatIfRequest, 'pairs' | 'traces'>;

/**
 * A parsed `POST /api/whatif` body checked for shape (the words themselves are the emulator's to judge):
 * string options ('' dropped), a list of `KEY=VALUE` strings, traces as {name, text} under their option's name.
 */
export function whatIfRequest(body: unknown): WhatIfRequest {
  const b = (body ?? {}) as Record<string, unknown>;
  if (typeof b.graph !== 'string') throw new WhatIfInputError('graph must be a graph id');
  const options: Record<string, string> = {};
  if (b.options && typeof b.options === 'object') {
    for (const [k, v] of Object.entries(b.options as Record<string, unknown>)) if (typeof v === 'string' && v !== '') options[k] = v;
  }
  const req: WhatIfRequest = { graph: b.graph, options };
  if (b.pairs !== undefined) {
    if (!Array.isArray(b.pairs) || !b.pairs.every((x) => typeof x === 'string')) throw new WhatIfInputError('pairs must be a list of KEY=VALUE strings');
    req.pairs = b.pairs as string[];
  }
  if (b.traces !== undefined) {
    if (!b.traces || typeof b.traces !== 'object') throw new WhatIfInputError('traces must be {option: {name, text}}');
    req.traces = {};
    for (const [k, v] of Object.entries(b.traces as Record<string, unknown>)) {
      const t = v as { name?: unknown; text?: unknown } | null;
      if (!(k in TRACE_FIELDS)) throw new WhatIfInputError(`traces: '${k}' is not a link trace option (${Object.keys(TRACE_FIELDS).join(', ')})`);
      if (!t || typeof t.name !== 'string' || typeof t.text !== 'string') throw new WhatIfInputError(`traces: ${k} must be {name, text}`);
      req.traces[k as keyof typeof TRACE_FIELDS] = { name: t.name.slice(0, 200), text: t.text };
    }
  }
  return req;
}

export async function runWhatIf(graph: Graph, options: Record<string, string | undefined>, input: WhatIfInput = {}): Promise<SimulationResult> {
  // Loaded on first use: `pcp view` starts without the simulator's modules.
  const { parseEmulatorOptions, optionPairs, parseTrace, simulate, ConfigError } = await import('@pcp/emulator');
  const asInputError = <T>(f: () => T): T => {
    try {
      return f();
    } catch (e) {
      // Bad words, and option combinations the simulator rejects, are input errors.
      if (e instanceof ConfigError) throw new WhatIfInputError(e.message);
      throw e;
    }
  };
  const words = asInputError(() => optionPairs(input.pairs ?? [], options));
  // Trace options name files on this machine: not something a page in the browser may choose. The panel sends
  // a trace's content instead.
  for (const k of Object.keys(TRACE_FIELDS)) if (words[k] !== undefined) throw new WhatIfInputError(`${k} reads a file on the server: choose the trace file in the panel`);
  const config = asInputError(() => parseEmulatorOptions(words));
  for (const [k, { path2, field }] of Object.entries(TRACE_FIELDS)) {
    const upload = input.traces?.[k as keyof typeof TRACE_FIELDS];
    if (!upload) continue;
    const target = path2 ? config.path2 : config;
    if (!target) throw new WhatIfInputError(`${k} needs a second path (path2)`);
    target[field] = asInputError(() => parseTrace(upload.text, upload.name));
  }
  return asInputError(() => simulate(graph, config));
}
