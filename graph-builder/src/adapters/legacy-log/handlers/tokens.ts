import type { RawElement, RawHOL, RawObjectHash, RawPreload } from '../records.ts';
import type { LogRecord } from '../reader.ts';
import { lined, type Handler, type Lined } from './handler.ts';

/**
 * `ObjectHash`: a token the HTML parser produced (row/column/pos in `doc`); `comp` is the computation
 * that fed the parser (document.write / innerHTML) or "(nil)" for the network document.
 * `Element`: a DOM element created (by script when `comp` is set). `Preload`: the preload scanner
 * fetched `url` ahead of the parser for token `code`. `HOL`: a head-of-line blocking token (unused by
 * the rules: scheduling, not dependency).
 */
export interface TokenData {
  tokens: Lined<RawObjectHash>[];
  elements: Lined<RawElement>[];
  preloads: Lined<RawPreload>[];
  hol: Lined<RawHOL>[];
}

export function tokenHandler(): Handler<TokenData> {
  const d: TokenData = { tokens: [], elements: [], preloads: [], hol: [] };
  return {
    kinds: ['ObjectHash', 'Element', 'Preload', 'HOL'],
    handleEvent(r: LogRecord) {
      if (r.kind === 'ObjectHash') {
        const t = lined(r.value as RawObjectHash, r.line);
        // The browser writes 0 for a start it did not record (seen on ~2% of tokens): use the end.
        if (t.startTime <= 0 && t.endTime > 0) t.startTime = t.endTime;
        d.tokens.push(t);
      }
      else if (r.kind === 'Element') d.elements.push(lined(r.value as RawElement, r.line));
      else if (r.kind === 'Preload') d.preloads.push(lined(r.value as RawPreload, r.line));
      else d.hol.push(lined(r.value as RawHOL, r.line));
    },
    finalize() {
      d.tokens.sort((a, b) => a.startTime - b.startTime);
      d.elements.sort((a, b) => a.startTime - b.startTime);
    },
    data: () => d,
  };
}
