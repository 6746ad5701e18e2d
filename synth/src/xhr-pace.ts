/**
 * An XHR body trickled in as the recorded readystatechange dispatches say. Chromium dispatches
 * readystatechange once at HEADERS_RECEIVED, once for every piece of body data that reaches the
 * renderer while LOADING (XMLHttpRequest::DidReceiveData), and once at DONE; a body sent whole gives
 * three dispatches, so the handlers the graph recorded between the first and the last never ran. The
 * body is sent in as many pieces as the graph has LOADING dispatches, spaced as they were (at least
 * `minGapMs` apart, or the renderer reads two pieces at once), the last at the recorded end of the
 * transfer so the download lasts as recorded. The `_chunks` layout documents are trickled with. Pure.
 */

/**
 * Pieces closer than this often reach a busy renderer as one read (one dispatch): hotstar.com's 100
 * readystatechange dispatches came back as 12 with bodies sent whole, 33 with pieces 4 ms apart, 43
 * at 16 ms (load average 12-15; synth/README.md). Wider gaps stretch a long chain past its recorded end.
 */
export const XHR_PIECE_GAP_MS = 16;

const round = (x: number): number => Math.round(x * 100) / 100;

/**
 * [ms after the headers, bytes] for a body of `bytes` whose transfer lasted `transferMs` after the
 * headers; `dispatches`: the start times of the XHR's readystatechange events, in order (the first
 * HEADERS_RECEIVED, the last DONE). Undefined when fewer than two LOADING pieces are needed (the body
 * is then held whole, as any other).
 */
export function xhrPace(dispatches: readonly number[], bytes: number, transferMs: number, minGapMs = XHR_PIECE_GAP_MS): [number, number][] | undefined {
  const loading = dispatches.slice(1, -1);
  const pieces = Math.min(loading.length, bytes);
  if (pieces < 2) return undefined;
  const at = loading.slice(loading.length - pieces);
  const lastAt = at[pieces - 1]!;
  // Anchored at the transfer's end, spaced as recorded: backwards so the end stays, then forwards so nothing goes before the headers.
  const times = at.map((t) => Math.max(0, transferMs) - (lastAt - t));
  for (let i = pieces - 2; i >= 0; i--) times[i] = Math.min(times[i]!, times[i + 1]! - minGapMs);
  times[0] = Math.max(0, times[0]!);
  for (let i = 1; i < pieces; i++) times[i] = Math.max(times[i]!, times[i - 1]! + minGapMs);
  const each = Math.floor(bytes / pieces);
  return [[0, 0], ...times.map((t, i): [number, number] => [round(t), i === pieces - 1 ? bytes - each * (pieces - 1) : each])];
}
