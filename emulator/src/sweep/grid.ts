/**
 * Parameter grids for `pcp sweep`: a JSON object mapping emulator option names (as `pcp emulate` spells
 * them, without dashes) to one value or a list of values; the grid is their cartesian product. `runs` (a
 * number) sets the runs per config (seeds 1..runs unless `seed` is given: then seed..seed+runs-1).
 *   {"bandwidth": ["1mbit", "10mbit"], "rtt": ["40ms", "200ms"], "protocol": ["h1", "h2"], "runs": 3}
 * `paths` stands for bandwidth, rtt and path2: {"paths": ["10mbit,40ms", "10mbit,40ms;10mbit,200ms"]} (mptcp/options.ts);
 * the second path's own link options are their own keys (`path2-loss-model`, `path2-downlink-trace`, ...).
 * Also the CSV rows the sweep writes, one per (graph, config, run), and the keys that make it resumable.
 */
import { parseEmulatorOptions, type EmulatorConfig } from '../config.ts';
import { expandPaths } from '../mptcp/options.ts';

export interface GridPoint {
  /** Option values as strings, in the grid's key order. */
  options: Record<string, string>;
  config: EmulatorConfig;
  /** Stable text form, `key=value;key=value`. */
  key: string;
}

export interface Grid {
  params: string[];
  points: GridPoint[];
  runs: number;
}

export class GridError extends Error {}

export function parseGrid(data: unknown): Grid {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new GridError('grid must be a JSON object of option -> value or [values]');
  const obj = { ...(data as Record<string, unknown>) };
  let runs = 1;
  if ('runs' in obj) {
    runs = Number(obj.runs);
    if (!Number.isInteger(runs) || runs < 1) throw new GridError(`grid 'runs' must be a positive integer, got ${JSON.stringify(obj.runs)}`);
    delete obj.runs;
  }
  const params = Object.keys(obj);
  const values: string[][] = params.map((p) => {
    const v = obj[p];
    const list = Array.isArray(v) ? v : [v];
    if (list.length === 0) throw new GridError(`grid '${p}' has no values`);
    return list.map((x) => {
      if (typeof x !== 'string' && typeof x !== 'number' && typeof x !== 'boolean') throw new GridError(`grid '${p}' values must be strings, numbers or booleans`);
      return String(x);
    });
  });
  const points: GridPoint[] = [];
  const idx = new Array<number>(params.length).fill(0);
  for (;;) {
    const options: Record<string, string> = {};
    params.forEach((p, i) => (options[p] = values[i]![idx[i]!]!));
    let config: EmulatorConfig;
    try {
      config = parseEmulatorOptions(expandPaths(options));
    } catch (e) {
      throw new GridError(`grid point ${JSON.stringify(options)}: ${(e as Error).message}`);
    }
    points.push({ options, config, key: params.map((p) => `${p}=${options[p]}`).join(';') });
    let k = params.length - 1;
    while (k >= 0 && ++idx[k]! >= values[k]!.length) idx[k--] = 0;
    if (k < 0) break;
  }
  return { params, points, runs };
}

export const RESULT_COLUMNS = ['loadTime', 'domContentLoadedTime', 'endTime', 'drops', 'retransmissions', 'packets', 'connections'] as const;

export function csvHeader(grid: Grid): string {
  return ['graph', 'config', ...grid.params, 'run', 'seed', ...RESULT_COLUMNS].join(',');
}

export function csvField(v: string | number): string {
  const s = String(v);
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** The resume key of a row: graph, config and run. */
export function rowKey(graph: string, configKey: string, run: number): string {
  return `${graph}\u0000${configKey}\u0000${run}`;
}

/** Splits one CSV line (RFC 4180 quoting). */
export function splitCsvLine(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let q = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (q) {
      if (c === '"' && line[i + 1] === '"') {
        cur += '"';
        i++;
      } else if (c === '"') q = false;
      else cur += c;
    } else if (c === '"') q = true;
    else if (c === ',') {
      out.push(cur);
      cur = '';
    } else cur += c;
  }
  out.push(cur);
  return out;
}

/** Keys of the complete rows already in a results file's text (a torn last line is ignored). */
export function doneKeys(text: string, header: string): Set<string> {
  const lines = text.split('\n');
  if (lines[0] !== header) throw new GridError('the output file was written for another grid (its header differs); use a new --out');
  const done = new Set<string>();
  const width = header.split(',').length;
  for (const line of lines.slice(1)) {
    if (!line) continue;
    const f = splitCsvLine(line);
    if (f.length !== width) continue;
    done.add(rowKey(f[0]!, f[1]!, Number(f[width - RESULT_COLUMNS.length - 2])));
  }
  return done;
}
