/**
 * Goel's trends judged honestly (issue 17): each compares a ratio of median PLTs (ours / reference) with what
 * the paper states, by direction AND magnitude class. Classes on a log scale, symmetric in speed-up and
 * slow-down:
 * - comparable: within x1.05 either way (Goel's own "3% faster or comparable", §VIII-A, plus the spread of a
 *   15-seed median, a few per cent here);
 * - faster / slower: x1.05 to x4/3;
 * - much faster / much slower: beyond x4/3 (a third more time, or a quarter less).
 * The paper states either a number (Fig. 19's 15 / 12 / 10 / 9 / 8 s, §VIII-A's 53% and 10%, Fig. 20's 13%):
 * then ours must fall in that number's class; or only words ("h2 outperforms", "comparable"): then the
 * classes those words allow. Pure functions; run.ts prints them.
 */

export const COMPARABLE_FACTOR = 1.05;
export const LARGE_FACTOR = 4 / 3;

export type Magnitude = 'much faster' | 'faster' | 'comparable' | 'slower' | 'much slower';

/** The class of a ratio of times (below 1: the first is faster). */
export function magnitude(ratio: number): Magnitude {
  if (!(ratio > 0) || !Number.isFinite(ratio)) throw new Error(`magnitude: a ratio of times must be positive and finite, got ${ratio}`);
  const l = Math.log(ratio);
  if (Math.abs(l) <= Math.log(COMPARABLE_FACTOR) + 1e-12) return 'comparable';
  const large = Math.abs(l) >= Math.log(LARGE_FACTOR) - 1e-12;
  if (l < 0) return large ? 'much faster' : 'faster';
  return large ? 'much slower' : 'slower';
}

/** What the paper says about one ratio: a number it gives, or the classes its words allow. */
export type Expectation = { paper: number } | { words: string; classes: readonly Magnitude[] };

export const FASTER: Expectation = { words: 'faster', classes: ['faster', 'much faster'] };
export const SLOWER: Expectation = { words: 'slower', classes: ['slower', 'much slower'] };
/** "Significantly" slower: beyond x4/3. */
export const MUCH_SLOWER: Expectation = { words: 'significantly slower', classes: ['much slower'] };
export const COMPARABLE: Expectation = { words: 'comparable', classes: ['comparable'] };
export const NOT_FASTER: Expectation = { words: 'comparable or slower', classes: ['comparable', 'slower', 'much slower'] };
/** Direction alone, for a paper statement with no size ("offers the lowest PLTs"). */
export const LOWER: Expectation = { words: 'lower (direction only)', classes: ['comparable', 'faster', 'much faster'] };

export interface Verdict {
  ok: boolean;
  /** "Good 0.85 faster (paper: faster)" or "Good 1.15 slower (paper 1.88: much slower)". */
  text: string;
}

export function judge(label: string, ours: number, expect: Expectation): Verdict {
  const got = magnitude(ours);
  if ('paper' in expect) {
    const want = magnitude(expect.paper);
    return { ok: got === want, text: `${label} ${ours.toFixed(2)} ${got} (paper ${expect.paper.toFixed(2)}: ${want})` };
  }
  // LOWER is a direction: below 1 at all, comparable or not.
  const ok = expect === LOWER ? ours < 1 : expect.classes.includes(got);
  return { ok, text: `${label} ${ours.toFixed(2)} ${got} (paper: ${expect.words})` };
}

/** A trend: every verdict must agree; the failing ones are marked. */
export interface Trend {
  what: string;
  ok: boolean;
  detail: string;
}

export function trend(what: string, verdicts: readonly Verdict[]): Trend {
  return { what, ok: verdicts.every((v) => v.ok), detail: verdicts.map((v) => (v.ok ? v.text : `*${v.text}*`)).join('; ') };
}
