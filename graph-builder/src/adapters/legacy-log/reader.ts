/**
 * Reads a legacy log line by line: each line is one JSON object with a single key naming the record kind.
 * Bad lines (not JSON, unknown kind, missing field) never stop the read: they become warnings naming the
 * line, and the rest is kept. `strict` turns the first one into a LegacyLogError instead.
 */
import { checkRecord } from './records.ts';

export class LegacyLogError extends Error {
  constructor(message: string, readonly line?: number) {
    super(line === undefined ? message : `line ${line}: ${message}`);
    this.name = 'LegacyLogError';
  }
}

export interface LogRecord {
  kind: string;
  value: unknown;
  /** 1-based line number in the log. */
  line: number;
}

export interface ReadOptions {
  strict?: boolean;
  /** At most this many per-line warnings are kept verbatim; the rest are counted. */
  maxLineWarnings?: number;
}

/** Splits text into lines without copying it all at once into an array of strings first. */
export function* linesOf(text: string): Generator<string> {
  let at = 0;
  while (at < text.length) {
    let nl = text.indexOf('\n', at);
    if (nl < 0) nl = text.length;
    yield text.charCodeAt(nl - 1) === 13 ? text.slice(at, nl - 1) : text.slice(at, nl);
    at = nl + 1;
  }
}

export function* readRecords(lines: Iterable<string>, warnings: string[], options: ReadOptions = {}): Generator<LogRecord> {
  const max = options.maxLineWarnings ?? 50;
  let lineNo = 0;
  let dropped = 0;
  const bad = (msg: string): void => {
    if (options.strict) throw new LegacyLogError(msg, lineNo);
    if (warnings.length < max) warnings.push(`line ${lineNo}: ${msg}; record skipped`);
    else dropped++;
  };
  for (const raw of lines) {
    lineNo++;
    const line = raw.trim();
    if (line === '') continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      bad(`not valid JSON (${JSON.stringify(line.slice(0, 60))}${line.length > 60 ? '...' : ''})`);
      continue;
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      bad('expected a JSON object keyed by record kind');
      continue;
    }
    const keys = Object.keys(parsed);
    if (keys.length !== 1) {
      bad(`expected exactly one record kind per line, found ${keys.length}`);
      continue;
    }
    const kind = keys[0]!;
    const value = (parsed as Record<string, unknown>)[kind];
    const problem = checkRecord(kind, value);
    if (problem) {
      bad(problem);
      continue;
    }
    yield { kind, value, line: lineNo };
  }
  if (dropped) warnings.push(`${dropped} more bad lines skipped`);
}
