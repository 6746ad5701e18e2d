/**
 * Lantern, the page-load simulator inside DevTools' trace engine (and Lighthouse), on one recorded
 * trace: the baseline `pcp emulate` is measured against (issue 12).
 *
 * What is computed, and why:
 * - The graph is Lantern's own, built exactly as the trace engine builds it for its insights
 *   (Processor#createLanternContext): the requests of the main frame's first http(s) navigation
 *   (until the next one), the renderer main thread's tasks, `PageDependencyGraph` over both; the
 *   observed per-origin server response times and extra RTTs from `NetworkAnalyzer`.
 * - The simulator is Lighthouse's "simulate" throttling: the given RTT and throughput, CPU multiplier
 *   as given (1 for a comparison on the recording's own CPU). Lantern's throughput unit is Kbps of
 *   1024 bit/s: `throughputKbps * 1024` bit/s is what it simulates.
 * - FCP is `Lantern.Metrics.FirstContentfulPaint` (its optimistic and pessimistic graphs and
 *   coefficients, as Lighthouse reports it), when the trace has an FCP.
 * - Lantern has no load or DOMContentLoaded metric. We simulate the whole graph once (so requests
 *   that outlive a marker, such as XHRs, still share the network as they did in the recording) and
 *   place each recorded main-frame marker (MarkLoad, MarkDOMContent) in that simulation:
 *   - load waits for every subresource, which Lantern's graph does not link to the task that fires
 *     it: the latest simulated end of the nodes (requests and tasks) that ended at or before the
 *     recorded load, or, if later, the simulated start of the kept task the event fired in plus the
 *     event's offset inside it;
 *   - DOMContentLoaded waits for the parser and the scripts it runs, not for images: the simulated
 *     start of the task it fired in plus its offset (that task's graph dependencies are Lantern's
 *     account of what it waits for); Lantern prunes short tasks (< 10 ms, few edges), often that
 *     one, and then it is the latest simulated end of what the parser may have waited for among the
 *     nodes that ended before the recorded event: main-thread tasks and the main frame's document,
 *     scripts and stylesheets (not images, fonts, XHR/fetch or other frames' requests);
 *   `details.loadRule` / `domContentLoadedRule` say which was used.
 * - Times are Lantern's: ms from the start of the root request, which Lighthouse compares with metrics
 *   from navigation start (it has no time before the document request). `details.documentRequestOffsetMs`
 *   says how far the recording's document request was from navigation start.
 * - DNS: Lantern charges each host's first connection `DNSCache.rttMultiplier` (2) RTTs of lookup.
 *   `dns: false` sets it to 0 for the simulation (on loopback no lookup happened).
 */
import { parseWithTraceEngine, traceEventsOf, TraceEngine, TraceEngineError, type HandlerData } from './trace-engine.ts';

const { Lantern, LanternComputationData } = TraceEngine;
type LanternNode = TraceEngine.Lantern.Graph.Node;
type NavigationStart = TraceEngine.Types.Events.NavigationStart;

export interface LanternOptions {
  rttMs: number;
  /** Lantern's unit: 1 Kbps = 1024 bit/s. */
  throughputKbps: number;
  cpuMultiplier: number;
  /** Charge Lantern's DNS lookup per host (default true: Lantern's own behaviour). */
  dns?: boolean;
}

/** A recorded main-frame event: ms from navigation start, and its trace timestamp (µs). */
interface Marker {
  ms: number;
  ts: number;
}

/** A trace prepared once for any number of simulations. */
export interface LanternTrace {
  graph: LanternNode;
  networkAnalysis: TraceEngine.Lantern.Types.Simulation.Settings['networkAnalysis'];
  processedNavigation?: TraceEngine.Lantern.Types.Simulation.ProcessedNavigation;
  mainFrameId: string;
  navigationTs: number;
  rootStartTs: number;
  url: string;
  recorded: { load?: Marker; domContentLoaded?: Marker; fcpMs?: number };
  /** Requests of the navigation as the trace engine saw them (redirect hops counted apart, as Lantern does). */
  requestCount: number;
}

export interface LanternDetails {
  url: string;
  rttMs: number;
  throughputKbps: number;
  cpuMultiplier: number;
  dnsRttMultiplier: number;
  /** Network and CPU nodes of Lantern's graph (after its pruning of short tasks). */
  networkNodes: number;
  cpuNodes: number;
  /** Simulated end of the whole graph, ms. */
  wholeGraphMs: number;
  /** The recording's own markers, ms from navigation start. */
  recorded: { loadTime?: number; domContentLoadedTime?: number; fcp?: number };
  /** Recorded document request start - navigation start, ms. */
  documentRequestOffsetMs: number;
  /** Nodes that ended before each marker in the recording and that it waits for (the prediction is their latest end). */
  nodesBeforeLoad: number;
  nodesBeforeDomContentLoaded: number;
  /** How each marker was placed: in the task it fired in, after the nodes that ended before it, or both. */
  loadRule: MarkerRule;
  domContentLoadedRule: MarkerRule;
}

export interface LanternPrediction {
  loadTime: number;
  domContentLoadedTime: number;
  fcp?: number;
  details: LanternDetails;
}

/** The main frame's first http(s) navigation: the page load the profiler recorded. */
function pageNavigation(data: HandlerData): NavigationStart {
  const frameId = data.Meta.mainFrameId;
  const navs = data.Meta.navigationsByFrameId.get(frameId) ?? [];
  const nav = navs.find((n) => /^https?:/.test(n.args.data?.documentLoaderURL ?? ''));
  if (!nav) throw new TraceEngineError('the trace has no http(s) navigation of the main frame');
  return nav;
}

function marker(data: HandlerData, nav: NavigationStart, name: TraceEngine.Handlers.ModelHandlers.PageLoadMetrics.MetricName): Marker | undefined {
  const score = data.PageLoadMetrics.metricScoresByFrameId.get(data.Meta.mainFrameId)?.get(nav)?.get(name);
  if (!score?.event) return undefined;
  return { ms: score.timing / 1000, ts: score.event.ts };
}

/** Parses the trace with the trace engine and builds Lantern's graph of the recorded page load. */
export async function loadLanternTrace(trace: unknown): Promise<LanternTrace> {
  const { events, data } = await parseWithTraceEngine(traceEventsOf(trace));
  const nav = pageNavigation(data);
  const navs = data.Meta.navigationsByFrameId.get(data.Meta.mainFrameId) ?? [];
  const next = navs[navs.indexOf(nav) + 1];
  const startTs = nav.ts;
  const endTs = next ? next.ts : Number.POSITIVE_INFINITY;
  const bounded = { traceEvents: events.filter((e) => e.ts >= startTs && e.ts < endTs) } as unknown as TraceEngine.Lantern.Types.Trace;
  try {
    const requests = LanternComputationData.createNetworkRequests(bounded, data, startTs, endTs);
    if (requests.length === 0) throw new TraceEngineError('the page load made no network request');
    const graph = LanternComputationData.createGraph(requests, bounded, data) as LanternNode;
    const networkAnalysis = Lantern.Core.NetworkAnalyzer.analyze(requests);
    if (!networkAnalysis) throw new TraceEngineError('Lantern could not analyse the recorded network (no timing data)');
    const Metric = TraceEngine.Handlers.ModelHandlers.PageLoadMetrics.MetricName;
    const fcp = marker(data, nav, Metric.FCP);
    const processedNavigation = fcp ? LanternComputationData.createProcessedNavigation(data, data.Meta.mainFrameId, nav) : undefined;
    return {
      graph, networkAnalysis, processedNavigation,
      mainFrameId: data.Meta.mainFrameId,
      navigationTs: startTs,
      rootStartTs: graph.getRootNode().startTime,
      url: nav.args.data?.documentLoaderURL ?? '',
      recorded: { load: marker(data, nav, Metric.L), domContentLoaded: marker(data, nav, Metric.DCL), fcpMs: fcp?.ms },
      requestCount: requests.length,
    };
  } catch (e) {
    if (e instanceof Lantern.Core.LanternError) throw new TraceEngineError(`Lantern: ${e.message}`);
    throw e;
  }
}

/** How a marker's simulated time was found (see the module comment). */
export type MarkerRule = 'task' | 'nodes-before' | 'task+nodes-before';

/**
 * The simulated time of a recorded marker. `inTask`: the simulated start of the kept main-thread task
 * the marker fired in, plus its offset inside (times the CPU slowdown). `before`: the latest simulated
 * end of the nodes that ended by the marker in the recording and that it `waitsFor`. `dependsOnAll`
 * (load) takes the later of both; otherwise (DOMContentLoaded) the task when there is one, else the
 * nodes before.
 */
function simulatedMarker(
  timings: Map<LanternNode, { startTime: number; endTime: number }>, m: Marker,
  waitsFor: (n: LanternNode) => boolean, dependsOnAll: boolean, cpuMultiplier: number,
): { ms: number; nodes: number; rule: MarkerRule } {
  let before = 0;
  let nodes = 0;
  let inTask: number | undefined;
  for (const [node, t] of timings) {
    if (node.endTime <= m.ts) {
      if (!waitsFor(node)) continue;
      before = Math.max(before, t.endTime);
      nodes++;
    } else if (node.type === 'cpu' && node.startTime <= m.ts) {
      inTask = Math.max(inTask ?? 0, t.startTime + ((m.ts - node.startTime) / 1000) * cpuMultiplier);
    }
  }
  if (inTask === undefined) return { ms: before, nodes, rule: 'nodes-before' };
  if (!dependsOnAll) return { ms: inTask, nodes, rule: 'task' };
  return { ms: Math.max(inTask, before), nodes, rule: 'task+nodes-before' };
}

/** What the main frame's parser (hence DOMContentLoaded) can wait for: tasks, and its document, scripts and stylesheets. */
function parserWaitsFor(mainFrameId: string): (n: LanternNode) => boolean {
  return (n) => n.type === 'cpu' || (n.request.frameId === mainFrameId && PARSER_BLOCKING.has(String(n.request.resourceType)));
}
const PARSER_BLOCKING = new Set(['Document', 'Script', 'Stylesheet']);

function countNodes(graph: LanternNode): { network: number; cpu: number } {
  const out = { network: 0, cpu: 0 };
  graph.getRootNode().traverse((n) => { out[n.type]++; });
  return out;
}

/** Simulates a prepared trace under one set of conditions (synchronous, deterministic). */
export function simulateLantern(lt: LanternTrace, opts: LanternOptions): LanternPrediction {
  if (!(opts.rttMs >= 0) || !(opts.throughputKbps > 0) || !(opts.cpuMultiplier > 0)) {
    throw new RangeError(`Lantern needs rttMs >= 0, throughputKbps > 0, cpuMultiplier > 0 (got ${opts.rttMs}, ${opts.throughputKbps}, ${opts.cpuMultiplier})`);
  }
  if (!lt.recorded.load || !lt.recorded.domContentLoaded) throw new TraceEngineError('the trace has no load or DOMContentLoaded event of the main frame');
  const DNSCache = Lantern.Simulation.DNSCache;
  const savedMultiplier = DNSCache.rttMultiplier;
  DNSCache.rttMultiplier = opts.dns === false ? 0 : savedMultiplier;
  try {
    const simulator = Lantern.Simulation.Simulator.createSimulator({
      networkAnalysis: lt.networkAnalysis,
      throttlingMethod: 'simulate',
      throttling: {
        rttMs: opts.rttMs, throughputKbps: opts.throughputKbps, cpuSlowdownMultiplier: opts.cpuMultiplier,
        requestLatencyMs: 0, downloadThroughputKbps: 0, uploadThroughputKbps: 0,
      },
    });
    const whole = simulator.simulate(lt.graph);
    const load = simulatedMarker(whole.nodeTimings, lt.recorded.load, () => true, true, opts.cpuMultiplier);
    const dcl = simulatedMarker(whole.nodeTimings, lt.recorded.domContentLoaded, parserWaitsFor(lt.mainFrameId), false, opts.cpuMultiplier);
    let fcp: number | undefined;
    if (lt.processedNavigation) {
      fcp = Lantern.Metrics.FirstContentfulPaint.compute({ graph: lt.graph, simulator, processedNavigation: lt.processedNavigation }).timing;
    }
    const n = countNodes(lt.graph);
    return {
      loadTime: load.ms,
      domContentLoadedTime: dcl.ms,
      ...(fcp !== undefined ? { fcp } : {}),
      details: {
        url: lt.url,
        rttMs: opts.rttMs, throughputKbps: opts.throughputKbps, cpuMultiplier: opts.cpuMultiplier,
        dnsRttMultiplier: DNSCache.rttMultiplier,
        networkNodes: n.network, cpuNodes: n.cpu,
        wholeGraphMs: whole.timeInMs,
        recorded: { loadTime: lt.recorded.load.ms, domContentLoadedTime: lt.recorded.domContentLoaded.ms, ...(lt.recorded.fcpMs !== undefined ? { fcp: lt.recorded.fcpMs } : {}) },
        documentRequestOffsetMs: (lt.rootStartTs - lt.navigationTs) / 1000,
        nodesBeforeLoad: load.nodes,
        nodesBeforeDomContentLoaded: dcl.nodes,
        loadRule: load.rule,
        domContentLoadedRule: dcl.rule,
      },
    };
  } catch (e) {
    if (e instanceof Lantern.Core.LanternError) throw new TraceEngineError(`Lantern: ${e.message}`);
    throw e;
  } finally {
    DNSCache.rttMultiplier = savedMultiplier;
  }
}

/** One trace, one condition: `predictLantern(trace, { rttMs, throughputKbps, cpuMultiplier: 1 })`. */
export async function predictLantern(trace: unknown, opts: LanternOptions): Promise<LanternPrediction> {
  return simulateLantern(await loadLanternTrace(trace), opts);
}
