/** The options `pcp corpus build` and its one-site unit `pcp corpus build-site` share. */
import { UsageError, num, positiveInt, type Options, type Parsed } from '../../kit.ts';
import { PROFILE_OPTIONS } from '../../profile-options.ts';

export const SITE_OPTIONS = { out: { type: 'string' }, runs: { type: 'string' }, retries: { type: 'string' }, ...PROFILE_OPTIONS } satisfies Options;

export const SITE_OPTIONS_USAGE = `
  --runs K                       loads per site; the complete load with the median load time is kept (default 1)
  --retries R                    extra attempts for a site that failed, then it is recorded (default 1)`.slice(1);

export function siteSettings(p: Parsed): { runs: number; retries: number } {
  const retries = num(p, 'retries', 1);
  if (!Number.isInteger(retries) || retries < 0) throw new UsageError(`--retries expects a whole number >= 0, got '${String(p.values['retries'])}'`);
  return { runs: positiveInt(p, 'runs', 1), retries };
}
