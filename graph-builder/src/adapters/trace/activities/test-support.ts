/** For the phases' tests: an activity context over a real Chromium 156 fixture (../fixtures), phases run up to `upTo`. */
import { extractTrace } from '../extract.ts';
import { fixtureEvents, fixtureOptions } from '../handlers/test-support.ts';
import { ActivityContext, type TraceAdapterOptions } from './context.ts';
import { causeRequests } from './request-causes.ts';
import { selectComputations } from './select.ts';

export function contextOf(name: string, upTo: 'none' | 'select' | 'causes' = 'causes', options: TraceAdapterOptions = {}): ActivityContext {
  const ctx = new ActivityContext(extractTrace(fixtureEvents(name), fixtureOptions(name)), options, []);
  if (upTo === 'none') return ctx;
  selectComputations(ctx);
  if (upTo === 'causes') causeRequests(ctx);
  return ctx;
}

export const path = (url: string | undefined): string => (url ? new URL(url).pathname : '');
