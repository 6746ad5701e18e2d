/** For the handlers' tests: the real Chromium 156 fixtures (../fixtures), run through the whole handler set. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { traceHandlers } from '../extract.ts';
import { bundleExtractOptions } from '../index.ts';
import type { ExtractOptions } from '../load.ts';
import { parseTrace, type TraceEvent } from '../reader.ts';
import { runHandlers } from './run.ts';

export const fixtureDir = (name: string): string => fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));

/** A fixture's events: a bundle directory's trace, or example-site.trace.json.gz. */
export function fixtureEvents(name: string): TraceEvent[] {
  const file = name.endsWith('.json.gz') ? fixtureDir(name) : `${fixtureDir(name)}/trace.json.gz`;
  return parseTrace(gunzipSync(readFileSync(file)).toString('utf8')).events;
}

/** A bundle fixture's extraction options, as `pcp build` reads them. */
export function fixtureOptions(name: string): ExtractOptions {
  if (name.endsWith('.json.gz')) return {};
  const log = JSON.parse(readFileSync(`${fixtureDir(name)}/devtools.log.json`, 'utf8')) as unknown;
  return bundleExtractOptions(fixtureDir(name), log, []);
}

/** Every handler's data for a fixture. */
export function runFixture(name: string, events = fixtureEvents(name)) {
  return runHandlers(events, traceHandlers(fixtureOptions(name)));
}
