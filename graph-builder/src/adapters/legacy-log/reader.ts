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

/**
 * Line-at-a-time record reader: `push` each line (in order) and get its record, or undefined for a
 * blank or bad line (a warning, or a LegacyLogError in strict mode). Works for any line source, sync or
 * streamed.
 */
export class RecordReader {
  private lineNo = 0;
  private dropped = 0;
  private readonly max: number;

  constructor(
    private readonly warnings: string[],
    private readonly options: ReadOptions = {},
  ) {
    this.max = options.maxLineWarnings ?? 50;
  }

  private bad(msg: string): undefined {
    if (this.options.strict) throw new LegacyLogError(msg, this.lineNo);
    if (this.warnings.length < this.max) this.warnings.push(`line ${this.lineNo}: ${msg}; record skipped`);
    else this.dropped++;
    return undefined;
  }

  push(raw: string): LogRecord | undefined {
    this.lineNo++;
    const line = raw.trim();
    if (line === '') return undefined;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      return this.bad(`not valid JSON (${JSON.stringify(line.slice(0, 60))}${line.length > 60 ? '...' : ''})`);
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return this.bad('expected a JSON object keyed by record kind');
    const keys = Object.keys(parsed);
    if (keys.length !== 1) return this.bad(`expected exactly one record kind per line, found ${keys.length}`);
    const kind = keys[0]!;
    const value = (parsed as Record<string, unknown>)[kind];
    const problem = checkRecord(kind, value);
    if (problem) return this.bad(problem);
    return { kind, value, line: this.lineNo };
  }

  finish(): void {
    if (this.dropped) this.warnings.push(`${this.dropped} more bad lines skipped`);
    this.dropped = 0;
  }
}

export function* readRecords(lines: Iterable<string>, warnings: string[], options: ReadOptions = {}): Generator<LogRecord> {
  const reader = new RecordReader(warnings, options);
  for (const raw of lines) {
    const rec = reader.push(raw);
    if (rec) yield rec;
  }
  reader.finish();
}
