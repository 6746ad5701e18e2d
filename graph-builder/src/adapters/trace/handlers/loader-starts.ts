/**
 * When the renderer handed each request to the network service: `ThrottlingURLLoader::StartNow` (category
 * `loading`, on the renderer's IO thread), after Blink's resource load scheduler released it. The slice
 * names no url; its flow (`s` at StartNow, `f` at the same loader's `ThrottlingURLLoader::OnReceiveResponse`,
 * which carries `url`) does. A loader without a response (a failure, a redirect) has no url and is left out.
 */
import type { Handler } from '../../handler.ts';
import { text, type TraceEvent } from '../trace-events.ts';
import { ready } from './run.ts';

const START = 'ThrottlingURLLoader::StartNow';
const RESPONSE = 'ThrottlingURLLoader::OnReceiveResponse';

export interface LoaderStartData {
  /** Per url, the trace times (µs) its loaders started, ascending. */
  starts: Map<string, number[]>;
}

/** Key of an event's slot on its thread: flows begin and end at the timestamp of the slice they bind. */
const at = (e: TraceEvent): string => `${e.pid}:${e.tid}:${e.ts}`;

export function loaderStartHandler(): Handler<TraceEvent, LoaderStartData, Record<string, never>> {
  let flowStart = new Map<string, number>(); // pid:id -> StartNow ts
  let flowEnd = new Map<string, string>(); // pid:id -> slot of the response slice
  let responseUrl = new Map<string, string>(); // slot -> url
  let out: LoaderStartData | undefined;
  return {
    kinds: [START, RESPONSE],
    deps: [],
    reset() {
      flowStart = new Map();
      flowEnd = new Map();
      responseUrl = new Map();
      out = undefined;
    },
    handleEvent(e) {
      const id = text(e.id);
      if (e.name === START && e.ph === 's' && id !== undefined) flowStart.set(`${e.pid}:${id}`, e.ts);
      else if (e.name === START && e.ph === 'f' && id !== undefined) flowEnd.set(`${e.pid}:${id}`, at(e));
      else if (e.name === RESPONSE && e.ph === 'X') {
        const url = text((e.args as { url?: unknown } | undefined)?.url);
        if (url) responseUrl.set(at(e), url);
      }
    },
    finalize() {
      const starts = new Map<string, number[]>();
      for (const [flow, ts] of flowStart) {
        const slot = flowEnd.get(flow);
        const url = slot === undefined ? undefined : responseUrl.get(slot);
        if (url !== undefined) (starts.get(url) ?? starts.set(url, []).get(url)!).push(ts);
      }
      for (const list of starts.values()) list.sort((a, b) => a - b);
      out = { starts };
      flowStart = new Map();
      flowEnd = new Map();
      responseUrl = new Map();
    },
    data: () => ready(out, 'loaderStarts'),
  };
}
