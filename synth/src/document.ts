/**
 * The HTML of one document of the graph: the tags each parse chunk's children need (a script, a
 * style sheet, an image, an iframe, an inline script with its program) placed at the chunk's
 * recorded end position (line, column), whitespace between them, and the byte offset where each
 * chunk's content ends (the boundaries the replay trickles the document at). Pure.
 */
import { enclosingOf, type ParseChunkNode, type ResourceNode, type ScriptEvalNode } from '@pcp/graph-builder';
import type { TagPosition } from './body-start.ts';
import { htmlAttr } from './escape.ts';
import { sheetHeldNoScript } from './sheet-blocking.ts';
import { repeatBeforeItsRequest } from './early-repeats.ts';
import { FRAME_NAME_PREFIX } from './frame-bodies.ts';
import { childrenOf, stripFragment, type GraphIndex } from './graph-index.ts';
import { elementEvents, elementIssueOf, handlerJs, isOwnPageFrame, programJs, withRuntime, type ProgramContext } from './program.ts';

export interface DocumentText {
  html: string;
  /** UTF-8 byte offset where the content of each parse chunk (in document order) ends. */
  chunkEnds: number[];
  /** Chunks whose position could not be kept (content before them was longer than the gap). */
  drifted: number;
  /** UTF-8 bytes before the first tag (the doctype and whitespace): nothing in them to parse or preload. */
  lead: number;
}

/** A cursor that writes text and knows its 1-based line and column. */
class Writer {
  private parts: string[] = [];
  line = 1;
  column = 1;
  bytes = 0;
  write(s: string): void {
    this.parts.push(s);
    this.bytes += Buffer.byteLength(s);
    const nl = s.lastIndexOf('\n');
    if (nl < 0) this.column += s.length;
    else {
      this.line += s.split('\n').length - 1;
      this.column = s.length - nl;
    }
  }
  /** Whitespace up to (line, column); false when already past it. */
  moveTo(line: number, column: number): boolean {
    if (this.line > line || (this.line === line && this.column > column)) return false;
    if (this.line < line) this.write('\n'.repeat(line - this.line));
    if (this.column < column) this.write(' '.repeat(column - this.column));
    return true;
  }
  text(): string {
    return this.parts.join('');
  }
}

/**
 * Whether the parser waited for script `r`, declared by `chunk`: the next parse chunk follows one of
 * its evaluation's parts (rule 4). Legacy graphs record every external script as sync; one the parser
 * did not wait for (50 of the 64 graphs' 472 parser scripts with a chunk after them: speedcurve's
 * `lux.js` on kickstarter.com, 1.9 s, parsed past at once) was async, and a synthesized blocking tag
 * would hold the parser for its whole download. The parts after an event the run dispatched inline (a
 * synchronous XHR's readystatechange, an uncaught error) count: 11 parser scripts of 9 graphs were written
 * async without them (session 17).
 */
function parserWaited(ix: GraphIndex, r: ResourceNode, chunk: ParseChunkNode): boolean {
  const next = childrenOf(ix, chunk.id).find((n) => n.kind === 'parse_chunk');
  if (!next) return true;
  const parts = new Set((ix.children.get(r.id) ?? []).flatMap((e) => ix.partsOf.get(e.to) ?? [e.to]));
  // A run resumed after an event it dispatched (`comp_7_0 -> readystatechange -> comp_7_1 -> comp_7_2 ->
  // rule 4`: www.apple.com's ac-globalnav.built.js, a synchronous XHR) is one logged computation, `comp_7`.
  const runs = new Set([...parts].filter((id) => ix.byId.get(id)?.kind === 'script_eval').map(enclosingOf));
  return (ix.parents.get(next.id) ?? []).some((e) => String(e.rule) === '4' && (parts.has(e.from) || (ix.byId.get(e.from)?.kind === 'script_eval' && runs.has(enclosingOf(e.from)))));
}

/** The tag that makes the parser request `r`, with its element's load and error handlers when the graph has them. */
function resourceTag(ctx: ProgramContext, r: ResourceNode, scriptKind: ScriptEvalNode['scriptKind'] | undefined, chunk: ParseChunkNode): string {
  const url = htmlAttr(stripFragment(r.url));
  const { load, error } = elementEvents(ctx.ix, r);
  const attr = (name: string, ev: typeof load): string => (ev ? ` ${name}="${htmlAttr(withRuntime(`(${handlerJs(ctx, ev.id)})()`))}"` : '');
  const onload = attr('onload', load) + attr('onerror', error);
  switch (elementIssueOf(ctx.ix, r)) {
    case 'script': return `<script src="${url}"${scriptKind === 'async' ? ' async' : scriptKind === 'defer' ? ' defer' : ''}${onload}></script>`;
    // A sheet the source's next parser-blocking script did not wait for: a medium that does not match (sheet-blocking.ts).
    case 'link': return `<link rel="stylesheet" href="${url}"${sheetHeldNoScript(ctx.ix, r, chunk) ? ' media="print"' : ''}${onload}>`;
    case 'img': return `<img src="${url}" alt=""${onload}>`;
    case 'iframe': {
      // The k-th frame of a URL several frames load is named, so that scripts pick its programs (frame-bodies.ts).
      const suffix = ctx.frameSuffixes?.byRequest.get(r.id);
      const name = suffix ? ` name="${htmlAttr(FRAME_NAME_PREFIX + suffix)}"` : '';
      return isOwnPageFrame(ctx, r) ? '' : `<iframe src="${url}"${name}${onload}></iframe>`;
    }
    default: return `<link rel="preload" as="fetch" href="${url}">`;
  }
}

/** An inline script that runs the computation whose first part is `id`. */
export function inlineScript(ctx: ProgramContext, id: string): string {
  return `<script>${withRuntime(programJs(ctx, id))}</script>`;
}

const BODY_TAG = '<body>';

/** Whether position (line, column) lies after `p`. */
const after = (line: number, column: number, p: TagPosition): boolean => line > p.line || (line === p.line && column > p.column);

export function documentText(ctx: ProgramContext, docUrl: string, chunks: readonly ParseChunkNode[]): DocumentText {
  const w = new Writer();
  w.write('<!DOCTYPE html>');
  const chunkEnds: number[] = [];
  let drifted = 0;
  let lead: number | undefined;
  // The source's `<body>` start tag, ending where the source's did (body-start.ts), before the first
  // chunk whose tags lie after it: the tags before it are head requests, as they were in the source.
  let body = ctx.bodyStarts?.get(stripFragment(docUrl));
  for (const chunk of chunks) {
    if (body && after(chunk.endLine, chunk.endColumn, body)) {
      w.moveTo(body.line, Math.max(1, body.column - BODY_TAG.length));
      w.write(BODY_TAG);
      body = undefined;
    }
    if (!w.moveTo(chunk.startLine, chunk.startColumn)) drifted++;
    const tags: string[] = [];
    for (const child of childrenOf(ctx.ix, chunk.id)) {
      if (child.kind === 'resource') {
        // A memory-cache repeat recorded before its request: the request is made where the source made it (early-repeats.ts).
        if (repeatBeforeItsRequest(ctx.ix, child)) continue;
        const evalKind = childrenOf(ctx.ix, child.id).find((n): n is ScriptEvalNode => n.kind === 'script_eval')?.scriptKind;
        tags.push(resourceTag(ctx, child, evalKind === 'async' || evalKind === 'defer' || parserWaited(ctx.ix, child, chunk) ? evalKind : 'async', chunk));
      } else if (child.kind === 'script_eval' && (ctx.ix.partsOf.get(child.id)?.[0] ?? child.id) === child.id && stripFragment(child.scriptUrl) === docUrl) {
        tags.push(inlineScript(ctx, child.id));
      }
    }
    if (tags.length) w.moveTo(chunk.endLine, chunk.endColumn);
    if (tags.length) lead ??= w.bytes;
    for (const t of tags) w.write(t);
    chunkEnds.push(w.bytes);
  }
  return { html: w.text(), chunkEnds, drifted, lead: lead ?? w.bytes };
}
