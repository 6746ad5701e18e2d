/**
 * The adapters' one handler shape, after Chrome DevTools' trace engine (front_end/models/trace/handlers):
 * one module per concern of the input. A run resets each handler, shows it every event of its `kinds`
 * in input order (one pass over the input for all handlers), then finalizes the handlers in dependency
 * order, each receiving the data of the handlers it names in `deps`; `data` returns what it built.
 *
 * The legacy-log adapter routes its records by kind (legacy-log/index.ts); the trace adapter routes
 * trace events by name and resolves `deps` (trace/handlers/run.ts).
 */
export interface Handler<Event, Data, Deps extends object = object> {
  /** What the handler sees: record kinds (legacy log) or event names (trace). */
  readonly kinds: readonly string[];
  /** Handlers whose data `finalize` reads, by name; they are finalized first. */
  readonly deps?: readonly (keyof Deps & string)[];
  /** Clears what a previous run collected (a fresh handler needs none). */
  reset?(): void;
  handleEvent(event: Event): void;
  /** Receives its deps' data; a handler without deps may be finalized with no argument. */
  finalize(...deps: object extends Deps ? [deps?: Deps] : [deps: Deps]): void;
  data(): Data;
}
