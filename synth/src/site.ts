/**
 * A graph turned into a site: one response per resource URL of the graph, with its recorded
 * MIME type, byte size, HTTP status and server delay, and a body that makes Chromium do what the
 * graph recorded (documents, scripts and style sheets generated; images decodable; the rest
 * padded), plus how each body is trickled so that it arrives as recorded. Pure.
 */
import type { EventNode, Graph, GraphNode, ResourceNode, SourceKind } from '@pcp/graph-builder';
import { imageBody, imageFormatOf, opaqueBody, padText, textKindOf } from './bodies.ts';
import type { BodyStarts } from './body-start.ts';
import { documentText } from './document.ts';
import { documentPace, throughSpace } from './document-pace.ts';
import { connectionWaits } from './queueing.ts';
import { bodyParsedAt, schedulerHolds } from './scheduler-holds.ts';
import { asRequested } from './preload.ts';
import { asFetched, endBy } from './ran-early.ts';
import { endByLeast } from './preload-hold.ts';
import { heldUntilEvaluated } from './unreceived.ts';
import { neverRun } from './never-run.ts';
import { lastActivityMs } from './activity.ts';
import { cssUrl, jsString } from './escape.ts';
import { FOCUS_EVENTS, callerOf, indexGraph, isComputation, stripFragment, xhrEvents, type GraphIndex } from './graph-index.ts';
import { xhrPace } from './xhr-pace.ts';
import { frameSuffixes, frameSuffixJs, sharedFrameBodies, type FrameBody } from './frame-bodies.ts';
import { aboutDocumentChunks, aboutFrameOwners } from './about-frames.ts';
import { writtenFrames } from './written-scripts.ts';
import { causeOf, isCausable, type EventCause } from './element-events.ts';
import { postedFromAnotherFrame } from './frame-messages.ts';
import { elementIssueOf, evaluatedAs, evaluatedByAnother, failedElement, programJs, withRuntime, type ProgramContext } from './program.ts';

export interface SiteResponse {
  url: string;
  status: number;
  mimeType: string;
  body: Buffer;
  /** Server delay (ms) before the response headers. */
  delayMs: number;
  /** How the body is trickled: [ms after the headers, bytes] (the replay's --pace). */
  chunks?: [number, number][];
  /** A redirect's target (upgrades.ts). */
  location?: string;
  /** One of several bodies of its URL (frame-bodies.ts): never from the browser's cache. */
  noStore?: boolean;
  /**
   * The source browser took it from its HTTP cache (a cache hit of the legacy capture: a `cached` node and
   * no network fetch of its URL): written as HAR `_fromCache`, and the replay's browser has it in its cache
   * before the measured load (the profiler's cache warm-up).
   */
  fromCache?: boolean;
  /** A script its `<script>` element never ran in the source (never-run.ts): served so that Chromium refuses to run it. */
  noRun?: boolean;
  /**
   * A download the source ran before its recorded end (ran-early.ts): its body ends by this, ms on the page's
   * clock, however late the replay's browser's request reaches the site (HAR `_endBy`): its recorded span already
   * holds the source browser's waits. Also a download the source's renderer held before sending (preload-hold.ts).
   */
  endByMs?: number;
  /** With `endByMs`: the response lasts at least this long after its request (HAR `_endByLeast`: a held preload's network span). */
  endByLeastMs?: number;
}

export interface Site {
  pageUrl: string;
  responses: SiteResponse[];
  warnings: string[];
  /** Bodies larger than the recorded size (the generated content did not fit), by URL. */
  oversize: string[];
  /** Parse chunks whose recorded position could not be kept. */
  drifted: number;
  /** The source graph's last activity, ms after navigation start (activity.ts). */
  lastActivityMs: number;
  /** Where the source graph came from (its provenance): the legacy corpus' kinds replay 2016's process model (process-model.ts). */
  sourceKind: SourceKind;
}

const round = (x: number): number => Math.round(x * 100) / 100;

/**
 * Events whose handler is installed by a script of their frame (window and document events), by
 * first part of that script's evaluation; `aboutRegs`: those of an about: frame no script of which runs
 * before them, by the about: resource whose iframe's creator installs them (about-frames.ts).
 */
function registrations(ix: GraphIndex, warn: (m: string) => void, owners: Map<string, ResourceNode>, aboutRegs: Map<string, EventNode[]>, causes: Map<string, EventCause>): Map<string, EventNode[]> {
  const regs = new Map<string, EventNode[]>();
  const evals = ix.graph.nodes.filter((n) => n.kind === 'script_eval' && ix.partsOf.get(n.id)?.[0] === n.id).sort((a, b) => a.start - b.start);
  const firstScript = (ev: EventNode): string | undefined => evals.find((s) => s.frame === ev.frame && s.start <= ev.start)?.id;
  for (const n of ix.graph.nodes) {
    if (n.kind !== 'event' || ix.partsOf.get(n.id)?.[0] !== n.id) continue;
    const target = n.eventTarget.toLowerCase();
    const hasWork = n.end > n.start || (ix.children.get(n.id) ?? []).some((e) => !ix.isPart(e));
    if (!hasWork || target.startsWith('xmlhttprequest') || (target === 'element' && n.eventName === 'load')) continue;
    if (callerOf(ix, n)) continue; // the rest of a handler, resumed after an event it caused: run by it
    if ((target === 'window' || target === 'messageport') && n.eventName === 'message' && !postedFromAnotherFrame(ix, n)) continue; // installed where the message is posted
    if (FOCUS_EVENTS.has(n.eventName) && (ix.parents.get(n.id) ?? []).some((e) => isComputation(ix.byId.get(e.from)!))) continue; // installed where the focus moves
    if (target === 'element' && n.eventName === 'error' && (ix.parents.get(n.id) ?? []).some((e) => ix.byId.get(e.from)?.kind === 'resource')) continue; // on the failed element
    const cause = isCausable(ix, n) ? causeOf(ix, n, firstScript) : undefined;
    if (typeof cause === 'object') {
      causes.set(n.id, cause);
      continue;
    }
    if (target !== 'window' && target !== 'document') {
      warn(`event ${n.id} (${n.eventTarget}.${n.eventName}) cannot be caused in the synthesized page${cause ? `: ${cause}` : ''}`);
      continue;
    }
    const by = evals.find((s) => s.frame === n.frame && s.start <= n.start);
    const owner = by ? undefined : owners.get(n.frame);
    if (owner) {
      (aboutRegs.get(owner.id) ?? aboutRegs.set(owner.id, []).get(owner.id)!).push(n);
      continue;
    }
    if (!by) {
      warn(`event ${n.id} (${n.eventTarget}.${n.eventName}): no script of its frame runs before it to install the handler`);
      continue;
    }
    (regs.get(by.id) ?? regs.set(by.id, []).get(by.id)!).push(n);
  }
  return regs;
}

/**
 * [ms after the headers, bytes]: the headers at once, the body whole after `spanMs` (the recorded
 * transfer), so a resource lasts as recorded and an XHR sees each readyState once.
 */
function heldBody(bytes: number, spanMs: number): [number, number][] | undefined {
  if (spanMs < 1 || bytes < 1) return undefined;
  return [[0, 0], [round(spanMs), bytes]];
}

/** A URL without its scheme's difference: http for https (programs keyed alike whichever scheme a page or the browser used). */
const asHttp = (url: string): string => url.replace(/^https:/, 'http:');

function scriptBody(ctx: ProgramContext, r: ResourceNode): string {
  const url = stripFragment(r.url);
  // The evaluations of both schemes' URL: the browser upgrades an http request to an HSTS host, which then
  // gets the https body (www.ndtv.com: the page's http analytics.js beside an ad frame's https one).
  const evals = ctx.ix.graph.nodes
    .filter((n) => n.kind === 'script_eval' && asHttp(stripFragment(n.scriptUrl)) === asHttp(url) && ctx.ix.partsOf.get(n.id)?.[0] === n.id)
    .sort((a, b) => a.start - b.start);
  if (evals.length === 0) return '';
  const nth = new Map<string, number>();
  for (const s of evals) {
    // An evaluation caused by something else than its script's download (legacy graphs attribute later calls into a script to it) never runs: the file is evaluated once per load.
    const byDownload = (ctx.ix.parents.get(s.id) ?? []).some((e) => ctx.ix.byId.get(e.from)?.kind === 'resource');
    const byComputation = (ctx.ix.parents.get(s.id) ?? []).some((e) => isComputation(ctx.ix.byId.get(e.from)!));
    if (!byDownload && !byComputation) ctx.warn(`evaluation ${s.id} of ${url} has no download of its script or computation before it: the synthesized script runs once per load`);
  }
  // Evaluations a computation calls run inside it (program.ts); the file runs the others.
  const programs = evals.filter((s) => !callerOf(ctx.ix, s)).map((s) => {
    // Keyed without the scheme: a page the browser upgraded to https runs the programs of its http document.
    const doc = asHttp(ctx.ix.frameDoc.get(s.frame) ?? '') + (ctx.frameSuffixes?.byFrame.get(s.frame) ?? '');
    const k = (nth.get(doc) ?? 0) + 1;
    nth.set(doc, k);
    return `${jsString(`${doc}|${k}`)}:function(){${programJs(ctx, s.id)}}`;
  });
  // Each evaluation in a frame picks its program by the frame's document and how many times it ran there.
  return `${withRuntime(`var c=window.__pcpRuns=window.__pcpRuns||{},u=${jsString(url)},n=c[u]=(c[u]||0)+1,P={${programs.join(',')}},f=P[(window.__pcpDoc||document.URL).replace(/#.*$/,"").replace(/^https:/,"http:")+${frameSuffixJs}+"|"+n];if(f)f()`)};\n`;
}

/** What the style sheet at `url` loads: images, sheets it imports, and fonts (the rest CSS cannot request). */
function sheetLoads(ctx: ProgramContext, url: string): { kids: ResourceNode[]; images: ResourceNode[]; sheets: ResourceNode[]; fonts: ResourceNode[] } {
  const kids = ctx.ix.graph.nodes
    .filter((n) => n.kind === 'css_eval' && stripFragment(n.styleUrl) === url)
    .flatMap((n) => (ctx.ix.children.get(n.id) ?? []).map((e) => ctx.ix.byId.get(e.to)!))
    .filter((n): n is ResourceNode => n.kind === 'resource');
  const images = kids.filter((k) => elementIssueOf(ctx.ix, k) === 'img');
  const sheets = kids.filter((k) => elementIssueOf(ctx.ix, k) === 'link');
  // CSS requests images, fonts and sheets only: any other type a sheet loaded (fonts served as
  // application/octet-stream, text/plain or no type) is asked for as a font, which fetches any type.
  const fonts = kids.filter((k) => !images.includes(k) && !sheets.includes(k) && !['script', 'iframe'].includes(elementIssueOf(ctx.ix, k)));
  return { kids, images, sheets, fonts };
}

/**
 * Every font the page's style sheets load, http(s) first: a data: font decodes (the padded ones do
 * not), and the browser stops at the first font of a family list that does (vk.com: a data: font first
 * hid four).
 */
function pageFonts(ctx: ProgramContext): ResourceNode[] {
  const sheets = new Set(ctx.ix.graph.nodes.flatMap((n) => (n.kind === 'css_eval' ? [stripFragment(n.styleUrl)] : [])));
  const fonts = [...new Set([...sheets].flatMap((u) => sheetLoads(ctx, u).fonts))];
  return [...fonts.filter((f) => /^https?:/.test(f.url)), ...fonts.filter((f) => !/^https?:/.test(f.url))];
}

/** The private-use character (hex, six digits) only the page's i-th font family covers (`unicode-range`). */
export const fontChar = (i: number): string => (0xe000 + i).toString(16).toUpperCase().padStart(6, '0');

function styleBody(ctx: ProgramContext, r: ResourceNode): string {
  const { kids, images, sheets, fonts } = sheetLoads(ctx, stripFragment(r.url));
  for (const k of kids) if (!images.includes(k) && !fonts.includes(k) && !sheets.includes(k)) ctx.warn(`style sheet ${r.url} loads ${k.url} (${k.mimeType}), which CSS cannot request`);
  // @import rules come first in a sheet.
  const rules: string[] = sheets.map((k) => `@import ${cssUrl(stripFragment(k.url))};`);
  if (images.length) rules.push(`html{background-image:${images.map((i) => cssUrl(stripFragment(i.url))).join(',')}}`);
  // One family per font of the page; each sheet declares its own, and asks for all of them (one
  // html::before rule wins the cascade). Each family covers one character of its own (`fontChar`) that
  // the generated text holds, so layout asks for every font at once, as the source's browser did; a
  // family list over one character tried them in turn, each padded font failing to decode after its
  // download before the next was requested (session 12: apple.com's ten fonts one after another).
  const all = fonts.length ? pageFonts(ctx) : [];
  for (const f of fonts) {
    const i = all.indexOf(f);
    rules.push(`@font-face{font-family:pcp${i};src:${cssUrl(stripFragment(f.url))};unicode-range:U+${fontChar(i)}}`);
  }
  if (fonts.length) rules.push(`html::before{content:"${all.map((_, i) => `\\${fontChar(i)}`).join('')}";font-family:${all.map((_, i) => `pcp${i}`).join(',')}}`);
  return rules.join('\n');
}

export interface SynthesisOptions {
  /** Where each document's `<body>` began in the source (`bodyStartsOf`: the graph's, from the raw log): its `<body>` tag goes there. */
  bodyStarts?: BodyStarts;
}

export function synthesizeSite(graph: Graph, options: SynthesisOptions = {}): Site {
  const ix = indexGraph(graph);
  const warnings: string[] = [];
  const warn = (m: string): void => void warnings.push(m);
  const aboutRegistrations = new Map<string, EventNode[]>();
  const root = graph.root === undefined ? undefined : ix.byId.get(graph.root);
  const pageUrl = stripFragment(root?.kind === 'resource' ? root.url : graph.page.url);
  const aboutOwners = aboutFrameOwners(ix);
  const causes = new Map<string, EventCause>();
  const ctx: ProgramContext = { ix, warn, registrations: registrations(ix, warn, aboutOwners, aboutRegistrations, causes), aboutRegistrations, aboutOwners, pageUrl, causes, bodyStarts: options.bodyStarts };
  ctx.aboutDocument = (r) => {
    const doc = aboutDocumentChunks(ix, aboutOwners, r);
    return doc && { html: documentText(ctx, doc.docUrl, doc.chunks).html, srcdoc: doc.docUrl === 'about:srcdoc' };
  };
  const written = writtenFrames(ix, (r) => aboutDocumentChunks(ix, aboutOwners, r) !== undefined);
  if (written.size) ctx.writtenFrames = written;
  // The queue on the schedule the replay's browser will follow (preload.ts).
  const shared = sharedFrameBodies(ix);
  ctx.frameSuffixes = frameSuffixes(shared);
  const requested = new Set([...ix.resourceByUrl.values(), ...[...shared.values()].flat().map((f) => f.resource)]);
  // A download the source never saw end is served as when it ran (unreceived.ts): looked up once per resource.
  const servedAs = new Map([...requested].map((r) => [r.id, heldUntilEvaluated(ix, r)]));
  // The 2016 scheduler's holds (scheduler-holds.ts) come off first; the connection queue follows from the release.
  const byParser = (r: ResourceNode): boolean => (ix.parents.get(r.id) ?? []).some((e) => ix.byId.get(e.from)?.kind === 'parse_chunk');
  const holds = schedulerHolds(graph.nodes.filter((n): n is ResourceNode => n.kind === 'resource'), bodyParsedAt(ix.chunksByDoc.get(pageUrl) ?? [], options.bodyStarts?.get(pageUrl)), byParser);
  const released = (r: ResourceNode): ResourceNode => ({ ...r, start: r.start + (holds.get(r.id) ?? 0) });
  const queued = connectionWaits([...requested].sort((a, b) => a.start - b.start).map((r) => released(asRequested(ix, asFetched(ix, servedAs.get(r.id) ?? r)))));
  const waits = new Map([...requested].flatMap((r) => { const w = (holds.get(r.id) ?? 0) + (queued.get(r.id) ?? 0); return w > 0 ? [[r.id, w] as const] : []; }));
  const responses: SiteResponse[] = [];
  const oversize: string[] = [];
  let drifted = 0;
  const respond = (url: string, r: ResourceNode, frameBody?: FrameBody): void => {
    const elementFailed = failedElement(ix, r);
    const evaluated = elementFailed ? evaluatedByAnother(ix, r) : undefined;
    const failed = elementFailed && !evaluated;
    let status = failed && r.status < 400 ? 404 : r.status || 200;
    if (status >= 300 && status < 400) {
      warn(`resource ${r.id} (${url}): status ${status} served as 200 (the graph keeps no redirect target)`);
      status = 200;
    }
    // The request reaches the site when the browser has a connection for it (queueing.ts): the
    // wait comes off the transfer, then off the server delay.
    const wait = waits.get(r.id) ?? 0;
    const served = servedAs.get(r.id) ?? r;
    const recorded = Math.max(0, served.serverDelay ?? 0);
    const end = served.end;
    const delayMs = round(Math.max(0, recorded - Math.max(0, wait - Math.max(0, end - r.start - recorded))));
    const transfer = Math.max(0, end - r.start - wait - delayMs);
    const sentAt = r.start + wait;
    const kind = evaluatedAs(ix, evaluated ?? r) ?? textKindOf(r.mimeType);
    // An image whatever its MIME type says when an <img> requests it (a text/plain beacon): else it fails to decode.
    const image = imageFormatOf(r.mimeType) ?? (elementIssueOf(ix, r) === 'img' ? 'gif' : undefined);
    const chunks = frameBody?.chunks ?? ix.chunksByDoc.get(url);
    let body: Buffer;
    let paced: [number, number][] | undefined;
    if (failed) body = opaqueBody(r.size); // its element fires error: nothing in it may decode or run
    else if (kind === 'html' && chunks?.length) {
      const doc = documentText(ctx, url, chunks);
      drifted += doc.drifted;
      body = padText(doc.html, 'html', r.size);
      paced = documentPace(ix, r, throughSpace(body, doc.chunkEnds), body.length, sentAt + delayMs, doc.lead) ?? heldBody(body.length, transfer);
    } else if (image && elementIssueOf(ix, r) === 'img' && !evaluated) body = imageBody(image, r.size);
    else {
      const text = kind === 'js' ? scriptBody(ctx, r) : kind === 'css' ? styleBody(ctx, r) : kind === 'html' ? '<!DOCTYPE html>' : undefined;
      body = text !== undefined ? padText(text, kind, r.size) : image ? imageBody(image, r.size) : opaqueBody(r.size);
    }
    // An XHR's body in as many pieces as the graph has LOADING dispatches (its handlers run between them).
    if (!paced && !failed && elementIssueOf(ix, r) === 'xhr') paced = xhrPace(xhrEvents(ix, r).filter((e) => e.eventName === 'readystatechange').map((e) => e.start), body.length, transfer);
    if (body.length > r.size && r.size > 0) oversize.push(url);
    const by = endBy(ix, r, root?.kind === 'resource' ? root.start : 0);
    const least = endByLeast(r); // a held preload's bytes: never sooner than its network span (preload-hold.ts)
    responses.push({ url, status, mimeType: r.mimeType, body, delayMs, chunks: paced ?? heldBody(body.length, transfer), ...(frameBody && { noStore: true }), ...(r.cached && !frameBody && served === r && { fromCache: true }), ...(!failed && neverRun(ix, r) && { noRun: true }), ...(by !== undefined && { endByMs: round(by) }), ...(by !== undefined && least !== undefined && { endByLeastMs: round(least) }) });
  };
  for (const [url, r] of ix.resourceByUrl) {
    if (!/^https?:\/\//.test(url)) {
      warn(`resource ${r.id} (${url}) is not http(s): left out`);
      continue;
    }
    // A URL several frames loaded as different documents: one body per frame, in request order.
    const frames = shared.get(url);
    if (frames) for (const f of frames) respond(url, f.resource, f);
    else respond(url, r);
  }
  const pageFirst = responses.sort((a, b) => Number(b.url === pageUrl) - Number(a.url === pageUrl));
  return { pageUrl, responses: pageFirst, warnings, oversize, drifted, lastActivityMs: lastActivityMs(graph), sourceKind: graph.provenance.source };
}
