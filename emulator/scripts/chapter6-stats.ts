/**
 * The chapter 6 summary statistics (thesis §6.3, §6.5), as pure functions of per-download load times.
 * Samples are paired: index i of the single-path and multipath arrays is the same (site, run).
 */
import jstat from 'jstat';

/** Figure 6.4: mean PLT reduction, 100 x sum(SP - MP) / sum(SP). */
export function reduction(sp: readonly number[], mp: readonly number[]): number {
  let a = 0;
  let b = 0;
  for (let i = 0; i < sp.length; i++) {
    a += sp[i]!;
    b += mp[i]!;
  }
  return a > 0 ? (100 * (a - b)) / a : NaN;
}

/**
 * Figures 6.6, 6.8, 6.15: % of sites whose mean multipath PLT is no more than `marginMs` (20 ms in the thesis)
 * above their mean single-path PLT. `site[i]` names the site of sample i.
 */
export function shareAsFast(site: readonly number[], sp: readonly number[], mp: readonly number[], marginMs = 20): number {
  const sums = new Map<number, [number, number, number]>();
  for (let i = 0; i < site.length; i++) {
    const s = sums.get(site[i]!) ?? [0, 0, 0];
    s[0] += sp[i]!;
    s[1] += mp[i]!;
    s[2]++;
    sums.set(site[i]!, s);
  }
  let ok = 0;
  for (const [a, b, n] of sums.values()) if (b / n <= a / n + marginMs) ok++;
  return sums.size ? (100 * ok) / sums.size : NaN;
}

export interface Improvement {
  /** Mean of SP - MP, ms. */
  mean: number;
  /** Sample standard deviation of SP - MP, ms. */
  sd: number;
  /** 100 x sum(SP - MP) / sum(SP). */
  pct: number;
}

/** Tables 6.1-6.2: the difference SP - MP per download, its mean, sample standard deviation and % improvement. */
export function improvement(sp: readonly number[], mp: readonly number[]): Improvement {
  const n = sp.length;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += sp[i]! - mp[i]!;
  const mean = sum / n;
  let ss = 0;
  for (let i = 0; i < n; i++) ss += (sp[i]! - mp[i]! - mean) ** 2;
  return { mean, sd: n > 1 ? Math.sqrt(ss / (n - 1)) : NaN, pct: reduction(sp, mp) };
}

/** One-way ANOVA p-value that two groups of PLTs have the same mean (the tables' last column). */
export function anovaP(a: readonly number[], b: readonly number[]): number {
  let same = true;
  for (let i = 0; i < a.length && same; i++) same = a[i] === b[i];
  if (same && a.length === b.length) return 1; // identical groups: F = 0
  return jstat.jStat.anovaftest([...a], [...b]);
}
