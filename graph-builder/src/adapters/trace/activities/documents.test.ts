/** Documents' tokens, on a real Chromium 156 trace of profiler/example-site. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { computationActivities } from './computations.ts';
import { buildTokens, documentActivities, documentParses, resumeColumn, type TokenIndex } from './documents.ts';
import type { Slice, TraceRequest } from '../load.ts';
import { contextOf, path } from './test-support.ts';
import { ActivityContext, type TraceAdapterOptions } from './context.ts';
import { causeRequests } from './request-causes.ts';
import { selectComputations } from './select.ts';
import { extractTrace } from '../extract.ts';
import { fixtureDir, fixtureEvents, fixtureOptions } from '../handlers/test-support.ts';
import type { TraceEvent } from '../reader.ts';

test('each document\'s tokens in source order, never back in time, ending at the end of parsing; every key numbered', () => {
  const ctx = contextOf('example-site.trace.json.gz');
  computationActivities(ctx);
  const { documents, tokenIndex } = documentActivities(ctx);
  assert.deepEqual(documents.map((d) => path(d.url)), ['/index.html', '/frame/embed.html']);
  for (const d of documents) {
    const req = ctx.requests.find((r) => ctx.resId.get(r) === d.resource)!;
    assert.equal(req.url, d.url);
    for (let i = 1; i < d.tokens.length; i++) {
      const [a, b] = [d.tokens[i - 1]!, d.tokens[i]!];
      assert.ok(a.line < b.line || (a.line === b.line && a.column < b.column), 'source order');
      assert.ok(a.start <= b.start, 'the parser is sequential');
      assert.ok(a.offset <= b.offset);
    }
    const end = d.tokens[d.tokens.length - 1]!;
    assert.equal(end.tag, '#end');
    assert.ok(end.offset >= req.decodedLength);
  }
  assert.equal(tokenIndex.size, ctx.tokenKeys.length);
  for (const [key, { doc, token }] of tokenIndex) {
    const t = documents.find((d) => d.id === doc)!.tokens[token]!;
    assert.deepEqual([key.doc, t.line, t.column], [doc, key.line, key.column]);
  }
});

test("without parsed-byte counts, a token's offset is the body received before its predecessor's parse slice began (a trickled document)", () => {
  // r03-parse-chunks as recorded: 256-byte pieces reach the renderer at 12.9, 541.7 and 695.4 ms, the last 54
  // bytes at 843.5; a parse slice follows each piece; images at lines 7, 9 and 12.
  const req: TraceRequest = {
    requestId: 'doc', url: 'http://a.test/index.html', frame: 'f', resourceType: 'Document', method: 'GET', send: 0, response: 0, finish: 850,
    chunks: [{ time: 12.9, bytes: 256 }, { time: 541.7, bytes: 256 }, { time: 695.4, bytes: 256 }, { time: 843.5, bytes: 54 }],
    encodedLength: 822, decodedLength: 822, failed: false, fromCache: false, status: 200, mimeType: 'text/html',
  };
  const slice = (index: number, line: number, start: number): Slice => ({ index, kind: 'parse', name: 'ParseHTML', line, start, end: start + 1, thread: '1:1' });
  const parses = [slice(0, 1, 41), slice(1, 5, 542), slice(2, 8, 697), slice(3, 10, 844)];
  const keys = [7, 9, 12].map((line) => ({ doc: 'doc', line, column: 5, tag: 'img' }));
  const tokens = buildTokens(parses, keys, req, new Map() as TokenIndex, 'doc');
  assert.deepEqual(tokens.map((t) => [t.line, t.tag, t.offset]), [
    [1, '#parse', 0],
    [5, '#parse', 256], // the slice before began at 41, after the first piece
    [7, 'img', 512], // parsed in the slice that began at 542: the second piece had arrived
    [8, '#parse', 512],
    [9, 'img', 768],
    [10, '#parse', 768],
    [12, 'img', 822],
    [12, '#end', 822],
  ]);
});

test("a parse slice resuming on the line of a script it ran before begins past that script (accounts.google.com's CheckConnection script)", () => {
  // accounts.google.com as replayed, shortened: the slice at 122 (line 2028) ran inline scripts at lines 2412,
  // 2434 and 2447 (the last at 127 ms, column 9) and stopped at the end of the bytes in, on line 2447; the next
  // bytes came at 269, and the slice that went on from there (and an empty one at 158) names line 2447 too,
  // ran the script at line 2448 at 269.4; the slice after it (274.5) names line 2448.
  const req: TraceRequest = {
    requestId: 'doc', url: 'http://a.test/', frame: 'f', resourceType: 'Document', method: 'GET', send: 0, response: 0, finish: 340,
    chunks: [{ time: 122.3, bytes: 4959 }, { time: 269, bytes: 11778 }],
    encodedLength: 16737, decodedLength: 16737, failed: false, fromCache: false, status: 200, mimeType: 'text/html',
  };
  const slice = (index: number, line: number, start: number, end: number): Slice => ({ index, kind: 'parse', name: 'ParseHTML', line, start, end, thread: '1:1' });
  const parses = [slice(0, 2028, 122.4, 148.4), slice(1, 2447, 158.7, 158.7), slice(2, 2447, 269.2, 273.1), slice(3, 2448, 274.5, 306.2)];
  const script = (line: number, bound: number) => ({ doc: 'doc', line, column: 9, tag: 'script', bound });
  const keys = [script(2412, 122.7), script(2434, 125.3), script(2447, 127.05), script(2448, 269.4)];
  const tokens = buildTokens(parses, keys, req, new Map() as TokenIndex, 'doc');
  assert.deepEqual(tokens.map((t) => [t.line, t.column, t.tag, t.start]), [
    [2028, 0, '#parse', 122.4],
    [2412, 9, 'script', 122.7],
    [2434, 9, 'script', 125.3],
    [2447, 9, 'script', 127.05], // before: after a '#parse' at column 0 timed 269.2, so 269.2
    [2447, 10, '#parse', 269.2], // where the parser went on: past the script it had run
    [2448, 9, 'script', 269.4],
    [2448, 10, '#parse', 274.5], // the slice at 274.5 began after the script at 2448 ran, in the slice before
    [2448, Number.MAX_SAFE_INTEGER, '#end', 306.2],
  ]);
  // baidu.com as replayed, shortened: one long line 18 whose scripts ran in three slices; the slices at 1,522 and
  // 3,625 ms both name line 18 and resume past different scripts, each timed by itself (by the line, the first
  // had taken 3,625 and the scripts at 1,523-1,526 hung off a chunk starting 2.1 s after them).
  const long = [slice(0, 1, 1511, 1515.8), slice(1, 18, 1522.2, 1529.55), slice(2, 18, 3625.3, 3645.84)];
  const at = (column: number, bound: number) => ({ doc: 'doc', line: 18, column, tag: 'script', bound });
  const onOneLine = buildTokens(long, [at(851, 1512.8), at(2024, 1515.4), at(7182, 1523.5), at(11676, 1526.2), at(74109, 3626.1)], req, new Map() as TokenIndex, 'doc');
  assert.deepEqual(onOneLine.map((t) => [t.line, t.column, t.tag, t.start]), [
    [1, 0, '#parse', 1511],
    [18, 851, 'script', 1512.8],
    [18, 2024, 'script', 1515.4],
    [18, 2025, '#parse', 1522.2],
    [18, 7182, 'script', 1522.2],
    [18, 11676, 'script', 1522.2],
    [18, 11677, '#parse', 3625.3],
    [18, 74109, 'script', 3625.3],
    [18, Number.MAX_SAFE_INTEGER, '#end', 3645.84],
  ]);
  // No bound before the slice began (the tag not reached yet, or no script): the slice begins the line.
  assert.equal(resumeColumn(parses[2]!, [script(2447, 270)]), 0);
  assert.equal(resumeColumn(parses[2]!, [{ doc: 'doc', line: 2447, column: 9, tag: 'img' }]), 0);
});

test("a fragment parse run from script (innerHTML after the document was parsed) is not the document's; document.write's markup is", () => {
  const slice = (index: number, line: number, start: number, end: number, scripted = false): Slice => ({ index, kind: 'parse', name: 'ParseHTML', line, start, end, thread: '1:1', ...(scripted ? { scripted } : {}) });
  // docs-flask-search (Sphinx search page) as recorded: the document's slices at lines 1, 14, 30, 111 (the second
  // runs jQuery, whose own fragment parses nest in it), then searchtools.js's _displayItem sets innerHTML for each
  // result long after the document ended: ParseHTML slices with the document's url and frame, a stack, line 1.
  const doc = [slice(0, 1, 70.4, 74.0), slice(1, 14, 347.6, 547.1), slice(4, 30, 548.6, 552.2), slice(5, 111, 663.2, 663.2)];
  const jquery = [slice(2, 1, 357.0, 495.2, true), slice(3, 1, 495.3, 495.4, true)];
  const results = [slice(6, 1, 746.2, 746.6, true), slice(7, 1, 3038.4, 3038.5, true)];
  assert.deepEqual(documentParses([...results, ...doc, ...jquery]).map((s) => s.index), [0, 1, 4, 5]);
  // mix-document-write as recorded: the inline script at line 6 writes markup, parsed from the parser's line (6).
  const written = [slice(0, 1, 27.9, 29.0), slice(1, 6, 28.5, 28.9, true), slice(2, 6, 225.5, 225.9), slice(3, 9, 235.8, 235.8)];
  assert.deepEqual(documentParses(written).map((s) => s.index), [0, 1, 2, 3]);

  // The tokens of the search page then lie in the document's own slices: the #end at the end of parsing (663.2),
  // not at the last result's innerHTML (3038.5).
  const req: TraceRequest = {
    requestId: 'doc', url: 'http://a.test/search.html', frame: 'f', resourceType: 'Document', method: 'GET', send: 0, response: 0, finish: 74.5,
    chunks: [], encodedLength: 8000, decodedLength: 8000, failed: false, fromCache: false, status: 200, mimeType: 'text/html',
  };
  const keys = [{ doc: 'doc', line: 90, column: 5, tag: 'img' }];
  const tokens = buildTokens(documentParses([...doc, ...jquery, ...results]), keys, req, new Map() as TokenIndex, 'doc');
  assert.ok(tokens.every((t) => t.start <= 663.2), JSON.stringify(tokens.map((t) => t.start)));
  assert.equal(tokens.at(-1)!.start, 663.2);
});

test("ev-error's tokens are the same with an innerHTML parse added to its trace (a real trace, one fragment ParseHTML more)", () => {
  const tokensOf = (events: TraceEvent[]) => {
    const ctx = new ActivityContext(extractTrace(events, fixtureOptions('ev-error')), {}, []);
    selectComputations(ctx);
    causeRequests(ctx);
    computationActivities(ctx);
    return documentActivities(ctx).documents.map((d) => d.tokens);
  };
  const events = fixtureEvents('ev-error');
  // After the document's last parse (68.8 ms), a script sets innerHTML: Chromium writes a ParseHTML with the
  // document's url and frame, start line 0 and the script's stack.
  const last = events.filter((e) => e.name === 'ParseHTML' && e.ph === 'X' && (e.args as { beginData?: { startLine?: number } }).beginData?.startLine === 11).at(-1)!;
  const begin = (last.args as { beginData: Record<string, unknown> }).beginData;
  const fragment = { ...last, ts: last.ts + 5000, dur: 200, args: { beginData: { ...begin, startLine: 0, stackTrace: [{ functionName: 'render', scriptId: '9', url: begin.url, lineNumber: 3, columnNumber: 5 }] } } };
  assert.deepEqual(tokensOf([...events, fragment]), tokensOf(events));
});

test("with the document's source, a token's offset is its UTF-8 byte position, whatever the parse slices' lines (a one-line page)", () => {
  // synth-nyaa as recorded (shortened): one line of HTML trickled in pieces; every ParseHTML slice names line 1,
  // so the line-based placement puts every tag in the last slice; the arrivals would give each the whole body.
  const head = '<!DOCTYPE html><title>é</title><link rel="stylesheet" href="/www.css">';
  const body = `${head}${' '.repeat(100)}<script src="/functions.js"></script>${' '.repeat(200)}<img src="/topbar.png">`;
  const source = body + ' '.repeat(1000);
  const length = Buffer.byteLength(source);
  const req: TraceRequest = {
    requestId: 'doc', url: 'http://a.test/', frame: 'f', resourceType: 'Document', method: 'GET', send: 0, response: 0, finish: 340,
    chunks: [{ time: 18, bytes: 200 }, { time: 120, bytes: 300 }, { time: 340, bytes: length - 500 }],
    encodedLength: length, decodedLength: length, failed: false, fromCache: false, status: 200, mimeType: 'text/html',
  };
  const slice = (index: number, start: number): Slice => ({ index, kind: 'parse', name: 'ParseHTML', line: 1, start, end: start + 1, thread: '1:1' });
  const parses = [slice(0, 20), slice(1, 125), slice(2, 505)];
  const col = (needle: string) => source.indexOf(needle) + 1; // 1-based, as tags.ts gives them
  const keys = [
    { doc: 'doc', line: 1, column: col('/www.css'), tag: 'link' },
    { doc: 'doc', line: 1, column: col('/functions.js'), tag: 'script' },
    { doc: 'doc', line: 1, column: col('/topbar.png'), tag: 'img' },
  ];
  const tokens = buildTokens(parses, keys, req, new Map() as TokenIndex, 'doc', undefined, source);
  // 'é' is two bytes in UTF-8: every byte position after it is one more than its character index.
  assert.deepEqual(tokens.map((t) => [t.tag, t.offset]), [
    ['#parse', 0],
    ['link', source.indexOf('/www.css') + 1],
    ['script', source.indexOf('/functions.js') + 1],
    ['img', source.indexOf('/topbar.png') + 1],
    ['#end', length],
  ]);
  // Every slice names line 1, so times go by the offsets too: each tag in the first slice that ended with its bytes
  // in (200 bytes by 21 ms, 500 by 126): the link and the script in the slice at 20, the image (byte ~433) at 125.
  assert.deepEqual(tokens.map((t) => t.start), [20, 20, 20, 125, 506]);
  // Without the source (or with another page's), the arrivals decide, as before: here every tag falls in the last slice.
  const fallback = buildTokens(parses, keys, req, new Map() as TokenIndex, 'doc', undefined, source.slice(0, 500));
  assert.deepEqual(fallback.slice(1, 4).map((t) => [t.offset, t.start]), [[length, 505], [length, 505], [length, 505]]);
});

test('a subframe document holding no element (0 bytes; a doctype only) gets no tokens, so no chunks, though Chromium traced a ParseHTML for each', () => {
  // profiler/test-sites/r05-iframe-empty as recorded: empty.html is 0 bytes, doctype.html '<!DOCTYPE html>'.
  const docs = JSON.parse(readFileSync(`${fixtureDir('r05-iframe-empty')}/documents.json`, 'utf8')) as { url: string; body: string }[];
  const withSources: TraceAdapterOptions = { documentSources: new Map(docs.map((d) => [d.url, d.body])) };
  // Without the sources, only the 0-byte body is known to hold no element.
  for (const [options, kept] of [[withSources, []], [{}, ['/r05-iframe-empty/doctype.html']]] as const) {
    const ctx = contextOf('r05-iframe-empty', 'causes', options);
    const parsed = new Set(ctx.slices.filter((sl) => sl.kind === 'parse' && sl.url).map((sl) => path(sl.url)));
    assert.ok(parsed.has('/r05-iframe-empty/empty.html') && parsed.has('/r05-iframe-empty/doctype.html'), 'a ParseHTML slice for each frame document');
    computationActivities(ctx);
    assert.deepEqual(documentActivities(ctx).documents.map((d) => path(d.url)), ['/r05-iframe-empty/index.html', ...kept]);
  }
});
