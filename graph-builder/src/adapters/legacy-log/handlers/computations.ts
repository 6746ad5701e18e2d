import type { RawComputation } from '../records.ts';
import type { LogRecord } from '../reader.ts';
import { lined, type Handler, type Lined } from './handler.ts';

/** `Computation`: main-thread work. execScript (urlRecalcStyle = script url, "" inline), recalcStyle
 *  (urlRecalcStyle = stylesheet url), timer (from = registering computation, urlRecalcStyle = delay ms),
 *  fireEvent (name, target, targetType). layout and paint are kept out: no dependency rule uses them. */
export interface ComputationData {
  computations: Lined<RawComputation>[];
}

const MODELLED = new Set(['execScript', 'recalcStyle', 'timer', 'fireEvent']);

export function computationHandler(): Handler<ComputationData> {
  const d: ComputationData = { computations: [] };
  return {
    kinds: ['Computation'],
    handleEvent(r: LogRecord) {
      const c = r.value as RawComputation;
      if (MODELLED.has(c.type)) d.computations.push(lined(c, r.line));
    },
    finalize() {
      d.computations.sort((a, b) => a.startTime - b.startTime || a.endTime - b.endTime);
    },
    data: () => d,
  };
}
