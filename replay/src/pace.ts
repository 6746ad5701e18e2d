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
 * step ending the body. A single chunk is a body the recorded server held and sent in one piece
 * (the profiler archives one only when it came well after the headers): the whole body at its time.
 */
export function pacePlan(chunks: readonly (readonly [number, number])[], length: number): PaceStep[] {
  const total = chunks.reduce((s, [, b]) => s + Math.max(0, b), 0);
  if (length === 0 || chunks.length === 0 || total <= 0) return [{ atMs: 0, end: length }];
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

/**
 * A response's schedule (its server delay, then its body's writes) with `ms` taken off: taken off the body
 * first (steps moved earlier, those before zero merged into the first), the rest off the delay; never below
 * zero. Pure. The server takes off the time its connection set-up already cost a request whose schedule was
 * made from the source's whole span, a new connection's set-up included (a synthesized site, `_setupInSpan`;
 * the synthesizer put the source's transfer and set-up in the body), so the set-up does not count twice.
 */
export function shortenedBy(delayMs: number, steps: readonly PaceStep[], ms: number): { delayMs: number; steps: PaceStep[] } {
  const lastAt = steps.at(-1)?.atMs ?? 0;
  const offBody = Math.max(0, Math.min(ms, lastAt));
  const shifted: PaceStep[] = [];
  for (const s of steps) {
    const atMs = Math.max(0, s.atMs - offBody);
    const last = shifted.at(-1);
    if (last && atMs - last.atMs < 1) last.end = Math.max(last.end, s.end);
    else shifted.push({ atMs, end: s.end });
  }
  return { delayMs: Math.max(0, delayMs - Math.max(0, ms - offBody)), steps: shifted };
}


/**
 * The schedule ending by `endByMs` after its request (HAR `_endBy` on the page's clock, less the time the page
 * had run when the request came): a schedule ending later is shortened by the difference (body first, then
 * delay, `shortenedBy`), one ending earlier is kept; a time already past sends everything at once. The
 * synthesizer sets it where a recorded span already holds the browser's own waits before its request reached
 * the server (synth/src/ran-early.ts), so the replay's browser's waits come off the served span. Never shortened
 * below `leastMs` (HAR `_endByLeast`: a held preload's network span, synth/src/preload-hold.ts). Pure.
 */
export function endingBy(delayMs: number, steps: readonly PaceStep[], endByMs: number, leastMs = 0): { delayMs: number; steps: PaceStep[] } {
  const end = delayMs + (steps.at(-1)?.atMs ?? 0);
  const over = Math.min(end - Math.max(0, endByMs), end - Math.max(0, leastMs));
  return over > 0 ? shortenedBy(delayMs, steps, over) : { delayMs, steps: [...steps] };
}
