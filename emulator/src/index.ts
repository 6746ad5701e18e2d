/**
 * @pcp/emulator: replays a dependency graph (format v1) under chosen network, protocol and server models
 * (thesis §3.7). `simulate(graph, config)` is pure and seeded.
 */
export {
  parseEmulatorOptions,
  parseRate,
  parseTime,
  resolveConfig,
  ConfigError,
  PROTOCOLS,
  SERVER_MODELS,
  PRIORITY_SCHEMES,
  type EmulatorConfig,
  type ResolvedConfig,
  type Protocol,
  type ServerModel,
  type PriorityScheme,
  type CongestionControl,
  type QueueDiscipline,
} from './config.ts';
export { simulate, type SimResult, type ResourceTiming } from './simulator.ts';
export { compileGraph, type PageModel } from './page-model.ts';
export { loadDelayCdfs, defaultCdfDir, sharedDir, mimeClass, type DelayCdfs, type MimeClass } from './server-delays.ts';
export { checkInvariants, lowerBounds } from './invariants.ts';
export { median, quantile, summarizeRuns } from './stats.ts';
export { Rng } from './rng.ts';
