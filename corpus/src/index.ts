export * from './layout.ts';
export * from './read.ts';
export * from './tables.ts';
export { collectTables, type Collected, type CollectOptions, type SkippedPage } from './collect.ts';
export * from './release.ts';
export { datasetCard, mdText, type CardInput } from './card.ts';
export { verifyRelease, type VerifyResult } from './verify.ts';
