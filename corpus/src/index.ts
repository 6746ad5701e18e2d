export * from './layout.ts';
export * from './tables.ts';
export { collectTables, type Collected, type CollectOptions, type SkippedPage } from './collect.ts';
