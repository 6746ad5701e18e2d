/** @pcp/emulator/sweep: the grid a sweep runs and the worker that runs it. */
export { parseGrid, csvHeader, csvField, rowKey, splitCsvLine, doneKeys, GridError, RESULT_COLUMNS, type Grid, type GridPoint } from './grid.ts';
export type { SweepJob, SweepMessage } from './worker.ts';

/** The worker-thread entry (registers tsx, then loads worker.ts): `new Worker(SWEEP_WORKER_ENTRY)`. */
export const SWEEP_WORKER_ENTRY = new URL('./worker-entry.mjs', import.meta.url);
