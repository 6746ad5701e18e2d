/**
 * The options of a one-cell script of Goel's experiment (emulate:goel:trace, emulate:goel:shard): a page,
 * a testbed profile of one family (`--family frequency|quality`, default frequency), the loss slices' scale and
 * the number of seeds, each checked with a one-line reason.
 */
import { positiveInt } from '@pcp/profiler/script-args';
import { oneOf } from '../../src/index.ts';
import { PAGE_FAMILIES, type PageFamily } from './pages.ts';
import { familyProfiles, PROFILE_FAMILIES, type ProfileFamily, type TestbedProfile } from './testbed.ts';

export interface CellArgs {
  page: PageFamily;
  testbed: TestbedProfile;
  scale: number;
  runs: number;
}

export interface CellValues {
  page?: string;
  family?: string;
  profile?: string;
  scale?: string;
  runs?: string;
}

/** The cell, or the reason one option is bad. */
export function cellArgs(values: CellValues, defaults: { page: string; profile: string; scale: number }): CellArgs | string {
  const page = PAGE_FAMILIES.find((p) => p.name === (values.page ?? defaults.page));
  if (!page) return `unknown page '${values.page}' (${PAGE_FAMILIES.map((p) => p.name).join(', ')})`;
  let family: ProfileFamily;
  try {
    family = oneOf('family', values.family ?? 'frequency', PROFILE_FAMILIES);
  } catch (e) {
    return (e as Error).message;
  }
  const profiles = familyProfiles(family);
  const testbed = profiles.find((p) => p.name === (values.profile ?? defaults.profile));
  if (!testbed) return `unknown ${family} profile '${values.profile}' (${profiles.map((p) => p.name).join(', ')})`;
  const scale = values.scale === undefined ? defaults.scale : Number(values.scale);
  if (!(scale >= 0)) return `--scale expects a non-negative number, got '${values.scale}'`;
  try {
    return { page, testbed, scale, runs: positiveInt('runs', values.runs, 15) };
  } catch (e) {
    return (e as Error).message;
  }
}

/**
 * `--scales family:Profile=X,...` (emulate:goel): loss scales given per profile instead of calibrated, keyed
 * `family:Profile`; or the reason one entry is bad.
 */
export function parseScales(text: string): Map<string, number> | string {
  const out = new Map<string, number>();
  for (const entry of text.split(',').map((e) => e.trim()).filter((e) => e !== '')) {
    const m = /^([a-z]+):([A-Za-z]+)=(.+)$/.exec(entry);
    if (!m) return `--scales expects family:Profile=X entries (e.g. frequency:Poor=0.1), got '${entry}'`;
    const [, family, profile, x] = m as unknown as [string, string, string, string];
    if (!(PROFILE_FAMILIES as readonly string[]).includes(family)) return `--scales: unknown family '${family}' (${PROFILE_FAMILIES.join(', ')})`;
    const names: string[] = familyProfiles(family as ProfileFamily).map((p) => p.name);
    if (!names.includes(profile)) return `--scales: unknown ${family} profile '${profile}' (${names.join(', ')})`;
    const scale = Number(x);
    if (!(scale >= 0)) return `--scales: ${family}:${profile} expects a non-negative number, got '${x}'`;
    out.set(`${family}:${profile}`, scale);
  }
  return out;
}
