/**
 * Body pacing (`pcp replay --pace`): a response body sent the way it arrived when recorded, from the
 * archive's `_chunks` (ms after the response headers, bytes; Network.dataReceived). Off by default:
 * recorded over a real network, the pauses include that network's transfer time, which a shaped
 * replay would then count twice; recorded on loopback, they are the origin's own pacing (a trickled
 * document, a streamed response). Pure.
 */

/** One write: at `atMs` after the headers, send the body up to byte `end`. */
export interface PaceStep {
  atMs: number;
  end: number;
}

/**
 * The writes for a body of `length` bytes: recorded byte counts scaled to the body (the recorded ones
 * are decoded sizes, which may differ by a little), chunks less than 1 ms apart merged, the last
 * step ending the body.
 */
export function pacePlan(chunks: readonly (readonly [number, number])[], length: number): PaceStep[] {
  const total = chunks.reduce((s, [, b]) => s + Math.max(0, b), 0);
  if (length === 0 || chunks.length < 2 || total <= 0) return [{ atMs: 0, end: length }];
  const steps: PaceStep[] = [];
  let acc = 0;
  for (const [at, bytes] of chunks) {
    acc += Math.max(0, bytes);
    const end = Math.min(length, Math.round((acc / total) * length));
    const atMs = Math.max(0, at, steps.at(-1)?.atMs ?? 0);
    const last = steps.at(-1);
    if (last && atMs - last.atMs < 1) last.end = Math.max(last.end, end);
    else steps.push({ atMs, end });
  }
  steps.at(-1)!.end = length;
  return steps;
}
