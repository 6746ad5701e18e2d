export * from './layout.ts';
export * from './site-list.ts';
export { buildSite, failureReason, medianRun, type SiteBuildOptions, type SiteOutcome, type CaptureLike } from './build-site.ts';
export { buildCorpus, buildWithRetries, type PoolOptions, type PoolResult } from './pool.ts';
export { importLegacyCorpus, legacyEntries, legacyDelayRecords, type LegacyEntry, type LegacyImportResult } from './legacy-import.ts';
export { runDaskBuild, runDaskDriver, checkScheduler, type DaskJob, type DaskEvent } from './dask.ts';
