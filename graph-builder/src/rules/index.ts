/**
 * The rule engine: activity model -> v1 nodes and edges. Families run in dependency order: computation
 * selection, resources, parse/download chunks, sub-computation split, then the edges of Table 3.1 and
 * Appendix A, and the frame completion chain.
 */
import type { Activities } from '../model/types.ts';
import type { Edge, GraphNode } from '../format/types.ts';
import { completionRules, type CompletionTimes } from './completion.ts';
import { computationRules } from './computations.ts';
import { RuleContext } from './context.ts';
import { boundaryTokens, parseChunkRules } from './parse.ts';
import { resourceNodes, resourceRules } from './resources.ts';
import { selectComputations } from './select.ts';
import { computationNodes } from './split.ts';

export { DCL_MARKER, LOAD_MARKER } from './completion.ts';
export { breakCycles, findCycle } from './cycles.ts';

export interface RuleOutput {
  nodes: GraphNode[];
  edges: Edge[];
  times: CompletionTimes;
  markers: { domContentLoaded: string; load: string };
  root?: string;
}

export function applyRules(acts: Activities, warnings: string[]): RuleOutput {
  const ctx = new RuleContext(acts, warnings);
  const kept = selectComputations(acts);
  resourceNodes(ctx);
  parseChunkRules(ctx, boundaryTokens(acts, kept));
  computationNodes(ctx, kept);
  resourceRules(ctx);
  computationRules(ctx, kept);
  const times = completionRules(ctx, kept);
  const main = acts.frames.find((f) => f.parent === null);
  const root = main?.document ?? acts.resources[0]?.id;
  return { nodes: ctx.nodes, edges: ctx.edges, times, markers: ctx.markers, ...(root ? { root } : {}) };
}
