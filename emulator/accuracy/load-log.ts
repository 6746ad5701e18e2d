/**
 * The real loads of an accuracy:emulator run, one JSON line each, appended to DIR/loads.jsonl as they
 * finish: an interrupted run (`--keep DIR`) resumes from it, skipping what is done. A line cut short by
 * a kill is ignored.
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface LoggedLoad {
  page: string;
  condition: string;
  load: number;
  dcl: number;
  misses: number;
  /** Why the load was not cold (a reused connection, cache hits), if it was not. */
  warm?: string;
  /** The protocol the document came over (nextHopProtocol), when measured. */
  protocol?: string;
}

export const LOG_FILE = 'loads.jsonl';

/** The loads in the log's text, in order; lines that do not parse as a load are skipped. Pure. */
export function parseLoadLog(text: string): LoggedLoad[] {
  const out: LoggedLoad[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const v = JSON.parse(line) as LoggedLoad;
      if (typeof v.page === 'string' && typeof v.condition === 'string' && Number.isFinite(v.load) && Number.isFinite(v.dcl)) out.push(v);
    } catch {
      // a line cut short when the run was killed
    }
  }
  return out;
}

export const cellKey = (page: string, condition: string): string => `${page} ${condition}`;

/** The loads of each page and condition. Pure. */
export function loadsByCell(loads: readonly LoggedLoad[]): Map<string, LoggedLoad[]> {
  const by = new Map<string, LoggedLoad[]>();
  for (const l of loads) {
    const k = cellKey(l.page, l.condition);
    const list = by.get(k);
    if (list) list.push(l);
    else by.set(k, [l]);
  }
  return by;
}

export function readLoadLog(dir: string): LoggedLoad[] {
  const f = join(dir, LOG_FILE);
  return existsSync(f) ? parseLoadLog(readFileSync(f, 'utf8')) : [];
}

export function appendLoad(dir: string, l: LoggedLoad): void {
  appendFileSync(join(dir, LOG_FILE), JSON.stringify(l) + '\n');
}
