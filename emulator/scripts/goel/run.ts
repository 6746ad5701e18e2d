/**
 * Goel et al. 2017 ("Domain-sharding for faster HTTP/2 in lossy cellular networks") in the emulator (root
 * script "emulate:goel"): its synthetic page families under its loss profiles, HTTP/1.1 with 6 connections
 * vs HTTP/2 on one connection vs HTTP/2 with large objects sharded (variants.ts: issue 17's one second
 * connection, and Goel's Types A, B, C), median page load times printed as tables, then the paper's stated
 * trends (Figures 13-22) judged by direction and magnitude class one by one (trends.ts).
 * The profiles are Goel's testbed (testbed.ts: rate, RTT and loss changed every 70 ms) in its two families:
 * network quality (§VI-A, Figures 13-15) and loss frequency (§VI-B, Figures 16-22), each profile's loss
 * calibrated to the paper's retransmission share first (calibrate.ts). See emulator/README.md.
 */
import { checkedOption, positiveInt, scriptArgs } from '@pcp/profiler/script-args';
import { checkedSimulate as simulate, LOSS_DETECTIONS, oneOf, type EmulatorConfig, type LossDetection } from '../../src/index.ts';
import { median, quantile } from '../../src/stats.ts';
import { calibrate, CALIBRATION_SEEDS, type Calibration } from './calibrate.ts';
import { buildPage, pageBytes, PAGE_FAMILIES, type PageFamily } from './pages.ts';
import { GOEL_HOSTS, lossProfiles, type LossProfile } from './profiles.ts';
import { parseScales } from './cell-args.ts';
import { FIG16_VARIANTS, VARIANTS, variantConfig, type Variant } from './variants.ts';
import { COMPARABLE, FASTER, judge, LOWER, MUCH_SLOWER, NOT_FASTER, SLOWER, trend, type Expectation, type Trend, type Verdict } from './trends.ts';
import { familyProfiles, PROFILE_FAMILIES, quantileMean, TBF_BUFFER_BYTES, TBF_LIMIT_PACKETS, SLICE_ORDERS, type BridgeOptions, type ProfileFamily, type SliceOrder } from './testbed.ts';

const HELP = `usage: npm run emulate:goel [-- --runs N] [--profiles quality|frequency|both] [--hosts linux-3.13|thesis] [--uncalibrated] [--scales F:P=X,...]
                            [--no-refill] [--refill-wakes] [--netem-wakes] [--no-reorder] [--bridge-order iid|script] [--fixed-rwnd | --no-rwnd]
                            [--loss-detection nack|sack] [--tlp] [--early-retransmit] [--fack] [--frto]

Goel et al. 2017's page families (365 x 1 KB; 10 x 435 KB; 136 objects with 3 / 12 / 18 large) under its
cellular profiles as its testbed (rate, RTT and loss drawn every 70 ms from its
distributions, both directions; a 64 KiB token bucket refilled every slice; netem's re-ordering when the
delay drops), each profile's loss scaled so
that the emulator's share of retransmitted segments per 70 ms slice matches the paper's; plus lossless and
random 1% references at 5 Mbit/s, 70 ms. Hosts as Goel's: TLS, CUBIC, icwnd 10, delayed ACKs, 65,535-byte
receive windows at set-up grown by Linux 3.13's autotuning, Linux 3.13's loss recovery (SACK, FACK, TLP, early retransmit, F-RTO, Linux's RTO) as Goel's hosts ran. Prints the calibration, the median PLT of h1 (6 connections), h2 (1), h2 with --shard-large
(2 connections) and h2 with each large object on its own connection (--shard-connections each: Goel's
Type B); on the 8 MB page also Goel's Types A and C (2 or 5 large objects isolated: --shard-overflow main);
under the frequency profiles the 365 x 1 KB page over 1 / 2 / 3 hostnames and 10 x 435 KB over 1-10 (Fig. 19);
then each of the paper's statements judged: ours and the paper's figure (or words) must share direction
and magnitude class (comparable within x1.05, faster/slower to x4/3, much beyond; trends.ts).

  --runs N          seeds 1..N per cell (default 15)
  --profiles quality|frequency|both
                    the profile family: network quality (§VI-A: Good / Fair / Passable / Poor; the paper's
                    Figures 13-15), loss frequency (§VI-B: Good / Median / Poor; Figures 16-22), or both (default)
  --hosts linux-3.13|thesis
                    the hosts' loss recovery: Goel's Linux 3.13 (default: --loss-detection sack --tlp
                    --early-retransmit --fack --frto, and Linux's RTO: SRTT + max(4 RTTVAR, 200 ms)) or the thesis' NACK scheme with no probe (the switches
                    below then add one mechanism each)
  --uncalibrated    the paper's retransmission rates as the loss slices' probability (as Goel's bridge did)
  --scales family:Profile=X,...
                    these profiles' loss scales as given, not calibrated (e.g. frequency:Poor=0.1: to compare two
                    models at one loss)
  --no-refill       the rate alone: no 64 KiB bucket refill per slice (the paper's description, not its script)
  --refill-wakes    a packet short of tokens leaves on the next slice's refill (sessions 8-17); by default it waits
                    for tbf's watchdog, armed at its slice's rate: Linux 3.13's tbf_change refills without waking
                    the queue (an upper bound: netem's hand-overs also wake it)
  --netem-wakes     the data direction through Linux 3.13's netem root and tbf child, event-driven: netem's delay
                    before the bucket; a packet short of tokens leaves when tbf's watchdog fires (unless netem's own
                    is pending) or when netem next hands on or takes in a packet (session 18)
  --no-reorder      packets kept in order when a slice's delay drops (the bridge's netem re-ordered them)
  --bridge-order iid|script
                    the slices' order: each slice's rate, RTT and gap drawn apart (iid, default), or walked as
                    the script walks its arrays (script: ascending runs of three slices, a slice's rate, RTT and
                    gap low or high together; the same distribution per slice: testbed.ts)
  --fixed-rwnd      the receive windows stay 65,535 bytes for the connection's life (no autotuning; sessions 11-15)
  --no-rwnd         no receive-window cap at all
  --loss-detection nack|sack
                    the hosts' loss detection: the thesis' NACK scheme or ACK clocking as Linux
                    (three duplicate ACKs / SACK, else the RTO; emulator/README.md "Loss detection")
  --tlp             tail-loss probes on the hosts (Linux 3.10 and later, as Goel's 3.13, send them by default)
  --early-retransmit
                    with --loss-detection sack: early retransmit (RFC 5827; Linux 3.5 and later, delayed by RTT/4)
  --fack            with --loss-detection sack: forward acknowledgment (Linux to 4.14, as 3.13): lost retransmissions
                    found by later SACKs
  --frto            F-RTO (RFC 5682; Linux 2.6.24 and later): the window cut of a timeout lost ACKs caused is undone
  -h, --help        this help
`;

interface Cell {
  median: number;
  p25: number;
  p75: number;
  lossRate: number;
}

/** Host settings beside Goel's (`--fixed-rwnd`, `--no-rwnd`). */
const hosts: Partial<EmulatorConfig> = {};
/** Loss scales given by `--scales`, by `family:Profile`. */
let givenScales = new Map<string, number>();

function runCell(page: PageFamily, v: Variant, profile: LossProfile, runs: number, largeHosts = 0, spreadHosts = 1): Cell {
  const graph = buildPage(page, largeHosts, spreadHosts);
  const loads: number[] = [];
  let lost = 0;
  let packets = 0;
  for (let seed = 1; seed <= runs; seed++) {
    const r = simulate(graph, variantConfig(v, profile, seed, hosts));
    loads.push(r.loadTime);
    lost += r.losses;
    packets += r.packets;
  }
  return { median: median(loads), p25: quantile(loads, 0.25), p75: quantile(loads, 0.75), lossRate: packets ? lost / packets : 0 };
}

const s = (ms: number): string => (ms / 1000).toFixed(2);
const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;

/** One family: its testbed, calibration, page load times and the paper's trends for it; returns the trends. */
function runFamily(family: ProfileFamily, runs: number, bridge: Required<BridgeOptions>, calibrated: boolean): Trend[] {
  const testbed = familyProfiles(family);
  console.log(`\n=== ${family === 'quality' ? 'network quality (§VI-A, Table I; Figures 13-15)' : 'loss frequency (§VI-B; Figures 16-22)'} ===`);
  console.log(`testbed (Goel's bridge, both directions, every 70 ms): ${bridge.refill ? `tbf ${TBF_BUFFER_BYTES} B refilled per slice + the slice's rate` : "the slice's rate (no refill)"}${bridge.netemPair ? ", data through 3.13's netem/tbf pair (a packet short of tokens woken by tbf's watchdog or netem's next call)" : bridge.watchdogWake ? ", a packet short of tokens waits for tbf's watchdog" : ', every refill wakes the queue'}, queue ${TBF_LIMIT_PACKETS} packets, ${bridge.reorder ? "netem's re-ordering when the delay drops" : 'order kept'}, slices ${bridge.order === 'script' ? "walked as the script's arrays" : 'drawn apart'}`);
  for (const p of testbed) {
    console.log(`  ${p.name.padEnd(8)} RTT p50 ${p.rttMs[3]} ms (min ${p.rttMs[0]}, p90 ${p.rttMs[5]}); loss slice every ${p.gapS[3]} s (median), its loss p50 ${p.lossPct[3].toFixed(0)}% mean ${quantileMean(p.lossPct).toFixed(1)}%; rate p50 ${(p.rateKbps[3] / 1000).toFixed(2)} Mbit/s mean ${(quantileMean(p.rateKbps) / 1000).toFixed(2)}${bridge.refill ? ` (+${((TBF_BUFFER_BYTES * 8) / 70 / 1000).toFixed(2)} Mbit/s of refills)` : ''}`);
  }
  const scales: Partial<Record<string, number>> = {};
  if (calibrated) {
    console.log(`\nloss calibration: Goel's figure = mean retransmitted share of a loss slice; the emulator's = the same over each connection's 70 ms slices with a retransmission, retransmitted / segments exchanged both ways (2 MB page, h1 + h2, seeds 1-${CALIBRATION_SEEDS}); beside it the share of the server's segments alone and the lifetime share`);
    for (const p of testbed) {
      const given = givenScales.get(`${family}:${p.name}`);
      if (given !== undefined) {
        scales[p.name] = given;
        console.log(`  ${p.name.padEnd(8)} -> loss x${given} (given, --scales)`);
        continue;
      }
      const c: Calibration = calibrate(p, bridge, hosts);
      scales[p.name] = c.chosen.scale;
      const pts = c.points.map((x) => `x${x.scale}: ${pct(x.shares.meanClusterShare)} (p50 ${pct(x.shares.medianClusterShare)}, of sent ${pct(x.shares.meanClusterShareOfSent)}, lifetime ${pct(x.shares.lifetimeShare)})`).join('; ');
      console.log(`  ${p.name.padEnd(8)} paper ${pct(c.target)}; emulator ${pts}`);
      console.log(`  ${''.padEnd(8)} -> loss x${c.chosen.scale}: ${pct(c.chosen.shares.meanClusterShare)} against ${pct(c.target)}${Math.abs(c.chosen.shares.meanClusterShare - c.target) > 0.05 ? ' (out of reach: see emulator/README.md)' : ''}`);
    }
  }
  const profiles = lossProfiles(scales, bridge, family);
  console.log('');

  const cells = new Map<string, Cell>();
  const key = (page: string, v: string, profile: string): string => `${page}|${v}|${profile}`;
  for (const page of PAGE_FAMILIES) {
    for (const profile of profiles) {
      for (const v of VARIANTS) {
        if (page.large === 0 && v !== 'h1' && v !== 'h2') continue;
        cells.set(key(page.name, v, profile.name), runCell(page, v, profile, runs));
      }
      if (page.name === 'mixed-12') for (const v of FIG16_VARIANTS) cells.set(key(page.name, v, profile.name), runCell(page, v, profile, runs));
    }
  }

  console.log(`Median page load time, s (${family === 'quality' ? 'Figures 13-15, 20' : 'Figures 16-19, 21, 22'}): h1 | h2 | h2 --shard-large 20kb | the same, --shard-connections each`);
  console.log('page'.padEnd(24) + profiles.map((p) => p.name.padStart(34)).join(''));
  for (const page of PAGE_FAMILIES) {
    let line = `${page.name} (${(pageBytes(page) / 1e6).toFixed(1)} MB)`.padEnd(24);
    for (const profile of profiles) {
      const parts = VARIANTS.map((v) => cells.get(key(page.name, v, profile.name))).map((c) => (c ? s(c.median) : '-'));
      line += parts.join(' | ').padStart(34);
    }
    console.log(line);
  }
  const fig16: readonly Variant[] = ['h2', 'h2-typeA', 'h2-typeC', 'h2-typeB'];
  console.log(`\nFig. 16, 8 MB page, median PLT s: h2 (1 connection) | Type A (2 large isolated, 3) | Type C (5, 6) | Type B (12, 13): ${profiles.map((p) => `${p.name} ${fig16.map((v) => s(cells.get(key('mixed-12', v, p.name))!.median)).join(' | ')}`).join('; ')}`);

  const c = (page: string, v: Variant, profile: string): number => cells.get(key(page, v, profile))!.median;
  const lossy = testbed.map((p) => p.name);
  /** One verdict per profile: ratio a/b of page's medians against what the paper says (per profile or for all). */
  const per = (page: string, a: Variant, b: Variant, expect: Expectation | ((p: string) => Expectation | undefined), among: readonly string[] = lossy): Verdict[] =>
    among.flatMap((p) => {
      const e = typeof expect === 'function' ? expect(p) : expect;
      return e ? [judge(p, c(page, a, p) / c(page, b, p), e)] : [];
    });
  const checks: Trend[] = [];
  checks.push(trend('Fig. 13: 365 x 1 KB, h2/h1 ("significantly lower" over h2, every profile)', per('small-365', 'h2', 'h1', FASTER)));
  if (family === 'quality') {
    // §VII on Figure 14: h1 outperforms in every quality, "significantly" under Poor.
    checks.push(trend('Fig. 14: 10 x 435 KB, h2/h1 (h1 faster everywhere, "significantly" under Poor)', per('large-10', 'h2', 'h1', (p) => (p === 'Poor' ? MUCH_SLOWER : SLOWER))));
    checks.push(trend('Fig. 15: 2 MB, h2/h1 (h2 lower, every profile)', per('mixed-3', 'h2', 'h1', FASTER)));
    // §VII on Figure 15: 8 MB "comparable under Good and Fair", h2 larger as the quality gets worse; 12 MB h2 always higher.
    checks.push(trend('Fig. 15: 8 MB, h2/h1 (comparable under Good and Fair, larger under Passable and Poor)', per('mixed-12', 'h2', 'h1', (p) => (p === 'Good' || p === 'Fair' ? COMPARABLE : SLOWER))));
    checks.push(trend('Fig. 15: 12 MB, h2/h1 (higher, every profile)', per('mixed-18', 'h2', 'h1', SLOWER)));
    // §VIII-A on Figure 20: the 2 MB page, one connection per large object (4 in all): "either 3% faster or
    // comparable" to h2 under Good, Fair, Passable; 13% faster under Poor.
    checks.push(trend('Fig. 20: 2 MB, Type B (4 connections)/h2 (3% faster or comparable; Poor 13% faster)', per('mixed-3', 'h2-typeB', 'h2', (p) => (p === 'Poor' ? { paper: 0.87 } : COMPARABLE))));
  } else {
    // §VIII-A: the 10 x 435 KB page under the loss-frequency profiles: h1 8 s against h2 15 s under Good (the
    // paper's only number for this family's Figure 14 counterpart); "qualitatively similar" to Figure 14 elsewhere.
    checks.push(trend('Fig. 18/19: 10 x 435 KB, h2/h1 (Good: 15 s vs 8 s; h1 faster elsewhere)', per('large-10', 'h2', 'h1', (p) => (p === 'Good' ? { paper: 15 / 8 } : SLOWER))));
    // §VIII-A on the 2 MB page under loss frequency: h2 outperforms h1, and 4 connections (Type B) are faster still than both.
    checks.push(trend('Fig. 19 (2 MB): h2/h1 lower; Type B (4 connections) faster than h2 and than h1', [...per('mixed-3', 'h2', 'h1', FASTER).map(tag('h2/h1')), ...per('mixed-3', 'h2-typeB', 'h2', FASTER).map(tag('B/h2')), ...per('mixed-3', 'h2-typeB', 'h1', FASTER).map(tag('B/h1'))]));
    // §VIII-A on the 8 MB page (Type B, 13 connections): under Good 53% faster than h2 and 10% faster than h1
    // (so h2/h1 = 0.90 / 0.47 = 1.91 there); under Median and Poor faster than h2, "higher or comparable" to h1.
    checks.push(trend('Fig. 21/22 (8 MB): Type B/h2 (Good 53% faster; faster elsewhere)', per('mixed-12', 'h2-typeB', 'h2', (p) => (p === 'Good' ? { paper: 0.47 } : FASTER))));
    checks.push(trend('Fig. 21/22 (8 MB): Type B/h1 (Good 10% faster; higher or comparable elsewhere)', per('mixed-12', 'h2-typeB', 'h1', (p) => (p === 'Good' ? { paper: 0.9 } : NOT_FASTER))));
    checks.push(trend('abstract, §VII: 8 MB h2/h1 (Good 1.91 from §VIII-A, larger elsewhere), 12 MB h2/h1 larger', [...per('mixed-12', 'h2', 'h1', (p) => (p === 'Good' ? { paper: 0.9 / 0.47 } : SLOWER)).map(tag('8 MB')), ...per('mixed-18', 'h2', 'h1', SLOWER).map(tag('12 MB'))]));
  }
  // §VIII on Figure 16 (the 8 MB page): Types A (2 of 12 large isolated, 3 connections), C (5, 6) and B (12, 13)
  // "always lower" than h2 on one connection; Type B the lowest of them (no sizes given: direction only).
  checks.push(trend('Fig. 16 (8 MB): Types A, C, B each lower than h2; B the lowest', [...per('mixed-12', 'h2-typeA', 'h2', FASTER).map(tag('A/h2')), ...per('mixed-12', 'h2-typeC', 'h2', FASTER).map(tag('C/h2')), ...per('mixed-12', 'h2-typeB', 'h2', FASTER).map(tag('B/h2')), ...per('mixed-12', 'h2-typeB', 'h2-typeA', LOWER).map(tag('B/A')), ...per('mixed-12', 'h2-typeB', 'h2-typeC', LOWER).map(tag('B/C'))]));
  const issueForm = lossy.map((p) => `${p} ${(c('mixed-12', 'h2-shard', p) / c('mixed-12', 'h2', p)).toFixed(2)}`).join(', ');
  console.log(`
8 MB, issue 17's form (--shard-large: every large object over one second connection; not a form of Goel's) / h2: ${issueForm}`);
  if (family === 'quality') return checks;

  // Figure 19: the 365 x 1 KB page over h2 with its objects spread over 1, 2 and 3 hostnames (one connection each).
  const small365 = PAGE_FAMILIES.find((p) => p.name === 'small-365')!;
  const spread = new Map(lossy.map((p) => [p, [2, 3].map((n) => runCell(small365, 'h2', profiles.find((q) => q.name === p)!, runs, 0, n).median)] as const));
  console.log(`\n365 x 1 KB, h2 with the objects over 1 | 2 | 3 hostnames, median PLT s (Goel Figure 19: 2 hostnames 12% faster under Good; 3 comparable to 2 or slightly slower): ${lossy.map((p) => `${p} ${[c('small-365', 'h2', p), ...spread.get(p)!].map(s).join(' | ')}`).join('; ')}`);
  checks.push(trend('Fig. 19: 365 x 1 KB, h2 over 2 hostnames / 1 (Good 12% faster) and 3 / 2 (comparable or slightly higher)', [
    judge('Good 2/1', spread.get('Good')![0]! / c('small-365', 'h2', 'Good'), { paper: 0.88 }),
    ...lossy.map((p) => judge(`${p} 3/2`, spread.get(p)![1]! / spread.get(p)![0]!, NOT_FASTER)),
  ]));

  // Figure 19: the 10 x 435 KB page under Good, h2 over 1, 2, 3, 6 and 10 hostnames, beside h1.
  const large10 = PAGE_FAMILIES.find((p) => p.name === 'large-10')!;
  const good = profiles.find((p) => p.name === 'Good')!;
  const h1Good = runCell(large10, 'h1', good, runs);
  const byConns = [1, 2, 3, 6, 10].map((k) => ({ k, cell: runCell(large10, 'h2', good, runs, k === 1 ? 0 : k) }));
  const goelFig19: Record<number, number> = { 1: 15, 2: 12, 3: 10, 6: 9, 10: 8 };
  console.log('\n10 x 435 KB under Good: median PLT, s (Goel Figure 19: h1 8 s; h2 over 1/2/3/6/10 connections 15/12/10/9/8 s)');
  console.log(`  h1 (6 connections)   ${s(h1Good.median)}   (Goel 8)`);
  for (const { k, cell } of byConns) console.log(`  h2, ${String(k).padStart(2)} connection(s) ${s(cell.median)}   (Goel ${goelFig19[k]})   p25-p75 ${s(cell.p25)}-${s(cell.p75)}`);
  // Each h2(k)/h1 against Goel's (k)/8 s: the fall with k is judged by its steps' classes, not a 2% margin.
  checks.push(trend('Fig. 19: 10 x 435 KB under Good, h2 over k connections / h1 (Goel 15 / 12 / 10 / 9 / 8 s vs 8 s)', byConns.map(({ k, cell }) => judge(`k=${k}`, cell.median / h1Good.median, { paper: goelFig19[k]! / 8 }))));
  return checks;
}

/** Prefix a verdict's label (several ratios in one trend). */
function tag(prefix: string): (v: Verdict) => Verdict {
  return (v) => ({ ...v, text: `${prefix} ${v.text}` });
}

function main(): number {
  const { values } = scriptArgs('emulate:goel', HELP, { runs: { type: 'string' }, profiles: { type: 'string' }, hosts: { type: 'string' }, uncalibrated: { type: 'boolean' }, 'no-refill': { type: 'boolean' }, 'refill-wakes': { type: 'boolean' }, 'netem-wakes': { type: 'boolean' }, 'no-reorder': { type: 'boolean' }, 'bridge-order': { type: 'string' }, 'fixed-rwnd': { type: 'boolean' }, 'no-rwnd': { type: 'boolean' }, scales: { type: 'string' }, 'loss-detection': { type: 'string' }, tlp: { type: 'boolean' }, 'early-retransmit': { type: 'boolean' }, fack: { type: 'boolean' }, frto: { type: 'boolean' } });
  const runs = checkedOption('emulate:goel', () => positiveInt('runs', values.runs, 15));
  let which: ProfileFamily | 'both';
  let base: Partial<EmulatorConfig>;
  let order: SliceOrder;
  let ld: LossDetection | undefined;
  try {
    which = oneOf('profiles', values.profiles ?? 'both', [...PROFILE_FAMILIES, 'both'] as const);
    base = GOEL_HOSTS[oneOf('hosts', values.hosts ?? 'linux-3.13', Object.keys(GOEL_HOSTS))]!;
    order = oneOf('bridge-order', values['bridge-order'] ?? 'iid', SLICE_ORDERS);
    ld = values['loss-detection'] === undefined ? undefined : oneOf('loss-detection', values['loss-detection'], LOSS_DETECTIONS);
  } catch (e) {
    console.error(`emulate:goel: ${(e as Error).message}`);
    return 2;
  }
  const families = which === 'both' ? PROFILE_FAMILIES : [which];
  const bridge = { refill: !values['no-refill'], reorder: !values['no-reorder'], order, watchdogWake: values['refill-wakes'] !== true, netemPair: values['netem-wakes'] === true };
  Object.assign(hosts, base);
  const scales = parseScales(values.scales ?? '');
  if (typeof scales === 'string') {
    console.error(`emulate:goel: ${scales}`);
    return 2;
  }
  givenScales = scales;
  if (values['no-rwnd'] && values['fixed-rwnd']) {
    console.error('emulate:goel: --fixed-rwnd and --no-rwnd exclude each other');
    return 2;
  }
  if (values['no-rwnd'] || values['fixed-rwnd']) hosts.receiveWindowGrowth = false;
  if (values['no-rwnd']) hosts.receiveWindow = 0;
  if (ld !== undefined) hosts.lossDetection = ld;
  if (values.tlp) hosts.tlp = true;
  if (values['early-retransmit']) hosts.earlyRetransmit = true;
  if (values.fack) hosts.fack = true;
  if (values.frto) hosts.frto = true;
  if ((hosts.earlyRetransmit || hosts.fack) && hosts.lossDetection !== 'sack') {
    console.error('emulate:goel: early retransmit and FACK need --loss-detection sack');
    return 2;
  }
  const t0 = performance.now();
  console.log(`Goel 2017 in the emulator: TLS 1 RTT, icwnd 10, CUBIC, delayed ACKs, ${values['no-rwnd'] ? 'receive windows unlimited' : values['fixed-rwnd'] ? '65,535-byte receive windows, fixed' : "65,535-byte receive windows at set-up, grown by Linux's autotuning"}, ${runs} seeds per cell; loss recovery: ${hosts.lossDetection === 'sack' ? 'ACK clocking (sack)' : "the thesis' NACK scheme"}${hosts.tlp ? ', tail-loss probes' : ''}${hosts.earlyRetransmit ? ', early retransmit' : ''}${hosts.fack ? ', FACK' : ''}${hosts.frto ? ', F-RTO' : ''}${hosts.linuxRto ? ", Linux's RTO" : ''}`);
  const results = families.map((f) => ({ family: f, checks: runFamily(f, runs, bridge, !values.uncalibrated) }));
  for (const { family, checks } of results) {
    console.log(`\nGoel's trends, ${family} profiles:`);
    for (const { what, ok, detail } of checks) console.log(`  ${ok ? 'agrees   ' : 'DISAGREES'} ${what}: ${detail}`);
  }
  console.log(`\n${results.map(({ family, checks }) => `${family}: ${checks.filter((x) => x.ok).length} of ${checks.length} trends reproduced`).join('; ')}; ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return 0;
}

process.exitCode = main();
