/**
 * Flow pairing on real Chromium 156 traces of ground-truth pages (fixtures under ./fixtures): the JSON
 * Chromium writes ('s'/'f' events) and the JSON Perfetto's exporter writes (bind_id + flow_out/flow_in on
 * the events themselves) must give the same links.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { parseTrace, type TraceEvent } from './reader.ts';
import { flowPairs } from './flows.ts';
import { extractTrace } from './extract.ts';
import { traceToActivities } from './to-activities.ts';

const fixtureDir = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
const eventsOf = (name: string): TraceEvent[] => parseTrace(gunzipSync(readFileSync(`${fixtureDir(name)}/trace.json.gz`)).toString('utf8')).events;
const frameParents = (name: string) => {
  const f = JSON.parse(readFileSync(`${fixtureDir(name)}/frames.json`, 'utf8')) as { frames: Array<{ id: string; parentId: string | null }> };
  return new Map(f.frames.map((x) => [x.id, x.parentId]));
};

/** The same trace as Perfetto's JSON export writes flows: ids on the linked events, no 's'/'f' events. */
function asPerfetto(events: TraceEvent[], startName: string, endName: string): { events: TraceEvent[]; linked: number } {
  const ends = new Map<string, { s?: TraceEvent; f?: TraceEvent }>();
  for (const e of events) {
    if (e.name !== startName || (e.ph !== 's' && e.ph !== 'f')) continue;
    const k = `${e.pid}:${String(e.id)}`;
    ends.set(k, { ...ends.get(k), [e.ph]: e });
  }
  const at = (ref: TraceEvent, name: string, phs: string[]) =>
    events.find((e) => e.name === name && phs.includes(e.ph) && e.pid === ref.pid && e.tid === ref.tid && e.ts === ref.ts);
  const copyOf = new Map(events.filter((e) => !(e.name === startName && (e.ph === 's' || e.ph === 'f'))).map((e) => [e, { ...e }]));
  let linked = 0;
  for (const [k, { s, f }] of ends) {
    const start = s && at(s, startName, ['X', 'I']);
    const end = f && at(f, endName, ['X']);
    if (!start || !end) continue;
    Object.assign(copyOf.get(start)!, { bind_id: k, flow_out: true });
    Object.assign(copyOf.get(end)!, { bind_id: k, flow_in: true });
    linked++;
  }
  return { events: [...copyOf.values()], linked };
}

const CASES = [
  { fixture: 'ev-message', start: 'v8::Debugger::AsyncTaskScheduled', end: 'v8::Debugger::AsyncTaskRun', handler: 'message', sender: /\/sender\.html$/ },
  { fixture: 'ev-messageport', start: 'SequenceManager PostTask', end: 'ThreadControllerImpl::RunTask', handler: 'message', sender: /\/ev-messageport\/index\.html$/ },
];

for (const c of CASES) {
  test(`${c.fixture}: ${c.start} flows pair alike from Chromium's and Perfetto's JSON`, () => {
    const events = eventsOf(c.fixture);
    const chromium = flowPairs(events, c.start, c.end);
    const linkedChromium = [...chromium.values()].filter(Boolean).length;
    assert.ok(linkedChromium > 0, 'the fixture has linked flows');
    const perfetto = asPerfetto(events, c.start, c.end);
    assert.equal(perfetto.linked, linkedChromium);
    const linkedPerfetto = [...flowPairs(perfetto.events, c.start, c.end).values()].filter(Boolean).length;
    assert.equal(linkedPerfetto, linkedChromium);
    for (const [end, start] of chromium) {
      if (!start) continue;
      assert.ok(start.ts <= end.ts, `${c.start} at ${start.ts} precedes the run at ${end.ts}`);
    }
  });

  test(`${c.fixture}: the ${c.handler} handler follows its sender with either JSON`, () => {
    const events = eventsOf(c.fixture);
    for (const evs of [events, asPerfetto(events, c.start, c.end).events]) {
      const acts = traceToActivities(extractTrace(evs, { frameParents: frameParents(c.fixture) }));
      const handler = acts.computations.find((x) => x.kind === 'Event' && x.eventName === c.handler);
      assert.ok(handler && handler.triggeredBy.kind === 'computation', 'the handler has a cause');
      const sender = acts.computations.find((x) => x.id === (handler.triggeredBy as { id: string }).id);
      assert.match(sender?.scriptUrl ?? '', c.sender);
    }
  });
}
