export * from './format/types.ts';
export * from './format/validate.ts';
export * from './format/io.ts';
export * from './format/legacy.ts';
export * from './legacy-corpus.ts';
export { buildFromLegacyLog, buildFromLegacyLogStream, buildFromActivities, LegacyLogError, type BuildOptions, type BuildResult } from './build.ts';
export { readLegacyLogFile, decodeLegacyLog, streamLegacyLogLines } from './adapters/legacy-log/file.ts';
export type * from './model/types.ts';
export { parseTrace, TraceFormatError, type TraceFile } from './adapters/trace/reader.ts';
