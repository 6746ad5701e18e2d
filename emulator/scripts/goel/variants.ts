/**
 * The ways Goel's experiment loads a page: h1 on 6 connections, h2 on one, and h2 sharded by object size
 * (§VIII) — issue 17's form (every large object over one second connection, `--shard-large`) and Goel's
 * Types A, B, C on the 8 MB page (Fig. 16): the first 2 (A) or 5 (C) large objects one connection each and
 * the rest with the small ones (`--shard-overflow main`), or each large object on its own (B, `--shard-connections each`).
 */
import type { EmulatorConfig } from '../../src/index.ts';
import { goelConfig, type LossProfile } from './profiles.ts';

/** Between the small objects (<= 5 KB) and the large ones (>= 30 KB). */
export const SHARD_THRESHOLD = 20_000;

export type Variant = 'h1' | 'h2' | 'h2-shard' | 'h2-typeB' | 'h2-typeA' | 'h2-typeC';
/** The main table's columns. */
export const VARIANTS: readonly Variant[] = ['h1', 'h2', 'h2-shard', 'h2-typeB'];
/** Run on the 8 MB page only (Fig. 16). */
export const FIG16_VARIANTS: readonly Variant[] = ['h2-typeA', 'h2-typeC'];
export const ALL_VARIANTS: readonly Variant[] = [...VARIANTS, ...FIG16_VARIANTS];

/** Large objects isolated one connection each, the rest on the first connection (Goel's Types A and C). */
const ISOLATED: Partial<Record<Variant, number>> = { 'h2-typeA': 2, 'h2-typeC': 5 };

export function variantConfig(v: Variant, profile: LossProfile, seed: number, hosts: Partial<EmulatorConfig>): EmulatorConfig {
  if (v === 'h1') return goelConfig(profile, 'h1', seed, hosts);
  if (v === 'h2') return goelConfig(profile, 'h2', seed, hosts);
  if (v === 'h2-shard') return goelConfig(profile, 'h2', seed, { ...hosts, shardLarge: SHARD_THRESHOLD });
  if (v === 'h2-typeB') return goelConfig(profile, 'h2', seed, { ...hosts, shardLarge: SHARD_THRESHOLD, shardConnections: 0 });
  return goelConfig(profile, 'h2', seed, { ...hosts, shardLarge: SHARD_THRESHOLD, shardConnections: ISOLATED[v]!, shardOverflow: 'main' });
}
