export { readArchive, recordedOrigins, originOf, isIpLiteral, ArchiveError, type ReplayArchive, type ReplayEntry, type RecordedOrigin, type OriginProtocol } from './archive.ts';
export { createMatcher, isNoiseParam, looseKey, exactKey, type Matcher, type MatchKind } from './match.ts';
export { makeReplayCert, spkiHashOf, subjectAltNames, type ReplayCert } from './cert.ts';
export { assignDelays, delayRecordsOf, type DelayRecord, type DelaySummary } from './delays.ts';
export { startReplayServer, replayHeaders, rulesFor, type ReplayServer, type ReplayServerOptions, type ReplayStats, type ServedOrigin } from './server.ts';
export { loadOnce, median, summarise, LoadError, type LoadTimes, type LoadOptions, type LoadSummary } from './load.ts';
export { runControlled, ControlClient, type ReadyMessage } from './control.ts';
export { startRemoteReplay, type RemoteReplay } from './shaped.ts';
export { localTarget, shapedTarget, type ReplayTarget, type ShapedTargetOptions } from './targets.ts';
