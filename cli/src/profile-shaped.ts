/**
 * pcp profile URL --bandwidth R --rtt T [--loss P]: a page profiled through a real shaped link, the
 * record-and-replay way (Mahimahi's): the live page is recorded unshaped (archive + capture) into
 * OUT/recording, then its replay is served inside the link's server namespace and profiled from the
 * client namespace into OUT. This kernel has no veth, so a live origin cannot be reached through the
 * link directly; the replay also keeps third-party variation out of the shaped load.
 */
import { join } from 'node:path';
import type { CaptureOptions } from '@pcp/profiler';
import { CliError } from './kit.ts';
import { profileReplay, serverDelays, type ShapedSpec } from './replay-profile.ts';

/** The recording's directory inside the shaped bundle. */
export const RECORDING_DIR = 'recording';

export async function profileShaped(url: string, out: string, shaped: ShapedSpec, opts: CaptureOptions): Promise<number> {
  const { capturePage } = await import('@pcp/profiler');
  const recording = join(out, RECORDING_DIR);
  console.error(`recording ${url} unshaped into ${recording} (archive and capture), then replaying it through ${shaped.text}`);
  const rec = await capturePage(url, recording, { ...opts, archive: true, pcap: true });
  for (const w of rec.meta.warnings) console.error(`warning: recording: ${w}`);
  if (rec.meta.status === 'failed') throw new CliError(`recording failed: ${rec.meta.url} — ${rec.meta.endReason}: ${rec.meta.message} (bundle: ${recording})`);
  const records = await serverDelays(recording, undefined, false);
  const { meta, stats } = await profileReplay(recording, out, {
    shaped, records, chromium: opts.executablePath, timeoutMs: opts.timeoutMs ?? 60_000, replayedFrom: RECORDING_DIR,
  });
  for (const w of meta.warnings) console.error(`warning: ${w}`);
  const line = `${meta.status}: ${url} through ${shaped.text}, replayed from its recording — ${meta.endReason}: ${meta.message}; ${stats.requests} requests, ${stats.misses.length} not in the recording`;
  if (meta.status === 'failed') throw new CliError(`${line} (bundle: ${out})`);
  console.log(`${line}\nbundle: ${out} (recording: ${recording})`);
  return 0;
}
