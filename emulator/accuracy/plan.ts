/**
 * The grid's plan and its projected wall time, from the speed a previous run measured (its loads per
 * minute and seconds of recording per page, docs/accuracy/emulator-speed.json). Pure but for the file.
 */
import { existsSync, readFileSync } from 'node:fs';

/** What a run measured about its own speed (written beside the CSV). */
export interface Speed {
  loadsPerMinute: number;
  recordSecondsPerPage: number;
  /** One link and its replay server, opened (s). */
  linkSetupSeconds: number;
  /** When, and the machine's load average then. */
  at: string;
  loadAverage: string;
}

export interface Plan {
  loads: number;
  /** Loads already in the keep directory's log. */
  done: number;
  toRecord: number;
  /** Projected minutes for what is left; undefined without a measured speed. */
  minutes: number | undefined;
}

export function plan(o: { pages: number; conditions: number; runs: number; done: number; toRecord: number }, speed: Speed | undefined): Plan {
  const loads = o.pages * o.conditions * o.runs;
  const left = Math.max(0, loads - o.done);
  const minutes = speed ? left / speed.loadsPerMinute + (o.toRecord * speed.recordSecondsPerPage + o.conditions * speed.linkSetupSeconds) / 60 : undefined;
  return { loads, done: Math.min(o.done, loads), toRecord: o.toRecord, minutes };
}

export function describePlan(o: { pages: number; conditions: number; runs: number }, p: Plan, speed: Speed | undefined): string {
  const head = `plan: ${o.pages} pages x ${o.conditions} conditions x ${o.runs} runs = ${p.loads} real loads (${p.done} already done), ${p.toRecord} pages to record`;
  if (!speed || p.minutes === undefined) return `${head}; no measured speed yet to project the time`;
  return `${head}; projected ${p.minutes.toFixed(0)} min at ${speed.loadsPerMinute.toFixed(1)} loads per minute and ${speed.recordSecondsPerPage.toFixed(1)} s per recording (measured ${speed.at}, load average ${speed.loadAverage})`;
}

export function readSpeed(file: string): Speed | undefined {
  if (!existsSync(file)) return undefined;
  try {
    const v = JSON.parse(readFileSync(file, 'utf8')) as Speed;
    return v.loadsPerMinute > 0 ? v : undefined;
  } catch {
    return undefined;
  }
}
