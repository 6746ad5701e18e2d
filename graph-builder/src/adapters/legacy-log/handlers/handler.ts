import type { Handler as AdapterHandler } from '../../handler.ts';
import type { LogRecord } from '../reader.ts';

/**
 * One module per record family (the adapters' shared handler shape, ../../handler.ts): `handleEvent`
 * sees each record of its kinds in log order, `finalize` runs once at the end (sorting, grouping), and
 * `data` returns what it collected for the resolver. Legacy handlers need no other handler's data.
 */
export type Handler<D> = AdapterHandler<LogRecord, D>;

/** A record as stored by a handler: its typed value and the line it came from (for messages). */
export type Lined<T> = T & { line: number };

/** Tags a freshly parsed record with its line, in place (records are parsed per line and owned here). */
export function lined<T extends object>(value: T, line: number): Lined<T> {
  const v = value as Lined<T>;
  v.line = line;
  return v;
}
