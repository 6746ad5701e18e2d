/**
 * @pcp/emulator: replays a dependency graph (format v1) under chosen network, protocol and server models
 * (thesis §3.7). `simulate(graph, config)` is pure and seeded.
 */
export {
  parseEmulatorOptions,
  EMULATOR_OPTIONS,
  EMULATOR_VALUE_OPTIONS,
  optionPairs,
  oneOf,
  type EmulatorOption,
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
  MPTCP_SCHEDULERS,
  MPTCP_COUPLINGS,
  parsePath,
  type PathSpec,
  type MultipathConfig,
  type MptcpScheduler,
  type MptcpCoupling,
} from './config.ts';
export { simulate, type SimResult, type ResourceTiming, type SimulateOptions, type StreamDelivery } from './simulator.ts';
export { parseLoss, parseLossModel, gilbertMeanLoss, type LossSpec, type GilbertParams } from './network/loss-model.ts';
export { parseTrace, loadTrace, traceFromTimes, TRACE_MTU, type LinkTrace } from './network/link-trace.ts';
export { linkSchedule, type LinkSchedule, type SliceSpec } from './network/link-schedule.ts';
export { retransmissionShares, type ConnectionSlices, type RetransmissionShares } from './network/retransmission-slices.ts';
export type { LinkConfig, LossDetection, ShardOverflow } from './link-config.ts';
export { LOSS_DETECTIONS, SHARD_OVERFLOWS } from './link-config.ts';
export { LINUX_DELAYED_ACKS, THESIS_DELAYED_ACKS, type DelayedAckPolicy } from './network/tcp.ts';
export { compileGraph, type PageModel } from './page-model.ts';
export { recordedProtocol } from './recorded-protocol.ts';
export { loadDelayCdfs, defaultCdfDir, sharedDir, mimeClass, type DelayCdfs, type MimeClass } from './server-delays.ts';
export { checkInvariants, lowerBounds, streamViolation } from './invariants.ts';
export { checkedSimulate, invariantTally, type InvariantTally } from './checked-simulate.ts';
export { median, quantile, summarizeRuns } from './stats.ts';
export { Rng } from './rng.ts';
