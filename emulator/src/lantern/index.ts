/** @pcp/emulator/lantern: Lighthouse's Lantern on a trace (loads the trace engine, so kept off the main index). */
export { loadLanternTrace, simulateLantern, predictLantern, type LanternOptions, type LanternTrace, type LanternDetails, type LanternPrediction, type MarkerRule } from './predict.ts';
export { parseWithTraceEngine, traceEventsOf, TraceEngine, TraceEngineError, type TraceEvents, type HandlerData, type ParsedTrace } from './trace-engine.ts';
