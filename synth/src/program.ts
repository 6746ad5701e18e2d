/**
 * JavaScript for a computation of the graph: each part evaluates for its recorded duration (a busy
 * loop on performance.now()) and then does what its children in the graph say — insert elements
 * (script, style sheet, image, iframe), XHR/fetch with the recorded handlers, timers with the
 * recorded delays, window messages. What it cannot cause is named in a warning. Pure.
 */
import type { BodyStarts } from './body-start.ts';
import type { EventNode, GraphNode, ResourceNode, TimerNode } from '@pcp/graph-builder';
import { jsString } from './escape.ts';
import { causeCallJs, type EventCause } from './element-events.ts';
import { isAboutUrl, scriptIntoParent, scriptTargetFrame } from './about-frames.ts';
import { writtenIntoOf, writtenScriptJs } from './written-scripts.ts';
import { FRAME_NAME_PREFIX } from './frame-bodies.ts';
import { scriptElementLoads } from './script-loads.ts';
import { frameMessage, listenJs, postJs, postedFromAnotherFrame } from './frame-messages.ts';
import { outlastsFrameLoad } from './outlasting.ts';
import { readyStateOf } from './ready-states.ts';
import { frameLoads } from './frame-loads.ts';
import { FOCUS_EVENTS, callerOf, childrenOf, isComputation, isInlineXhrEvent, isPartEdge, recordedDelay, resumedCaller, stripFragment, xhrEvents, type GraphIndex } from './graph-index.ts';

/**
 * The helpers generated code calls: B (busy for t ms), E (insert an element), F (move the focus to a new
 * input, or away from it, with a handler of the focus event on the input, document or window: the
 * browser dispatches it inside the call, as a script's element.focus() did), A (an about:blank iframe
 * whose document is opened, given its window and document handlers and its HTML, and closed; or an
 * about:srcdoc iframe given its HTML), O (write a `<script src>` into a bare about: frame's document, opened,
 * given its handlers, closed: the frame stays loading until the script has run; written-scripts.ts), V (make the browser fire an event at a new element holding its handler, or
 * dispatch it there or at the window or document: element-events.ts), X (an XHR with handlers:
 * one per readystatechange dispatch, the last at DONE; handlers whose dispatch the browser merged
 * with another (two body pieces read at once) run at DONE, before the last, so none is lost; and the
 * handlers of its load event, recorded as `load`).
 */
const HELPERS: Record<string, string> = {
  B: 'var B=function(t){for(var e=performance.now()+t;performance.now()<e;);};',
  E: 'var E=function(t,u,f,g,d,n){d=d||document;var e=d.createElement(t);if(t=="link"){e.rel="stylesheet";e.href=u}else e.src=u;if(n)e.name=n;if(f)e.onload=f;if(g)e.onerror=g;(d.body||d.documentElement).appendChild(e)};',
  W: 'var W=function(){try{return top.__pcpF||(top.__pcpF={})}catch(x){return window.__pcpF||(window.__pcpF={})}};',
  D: 'var D=function(k){var e=W()[k];try{return e&&e.contentDocument}catch(x){}};',
  F: 'var F=function(n,t,h){var e=document.createElement("input"),o=t=="window"?window:t=="document"?document:e,b=n=="blur"||n=="focusout",f=function(){o.removeEventListener(n,f,true);h()};e.style.cssText="position:absolute;opacity:0";(document.body||document.documentElement).appendChild(e);if(b)e.focus();o.addEventListener(n,f,true);if(b)e.blur();else e.focus()};',
  A: 'var A=function(k,f,w,h,s){var e=document.createElement("iframe");if(s)e.srcdoc=h;if(f&&(s||!w&&!h))e.onload=f;(document.body||document.documentElement).appendChild(e);W()[k]=e;if(s||!w&&!h)return;var d=e.contentDocument;d.open();e.contentWindow.__pcpDoc="about:blank";if(w)w(e.contentWindow,d);if(h)d.write(h);if(f)e.onload=f;d.close()};',
  V: 'var V=function(k,n,h,t){var d=document,p=d.body||d.documentElement,e=t||d.createElement(k=="play"?"video":"div"),s=e.style,f=function(){e.removeEventListener(n,f);h()};e.addEventListener(n,f);if(t)return void t.dispatchEvent(new Event(n));s.cssText="position:absolute;left:0;top:0;width:9px;height:9px;overflow:hidden";p.appendChild(e);if(k=="scroll"){var c=d.createElement("div");c.style.height="99px";e.appendChild(c);e.scrollTop=9}else if(k=="transition"){s.transition="opacity 1ms";getComputedStyle(e).opacity;s.opacity="0.5"}else if(k=="animation"){var y=d.createElement("style");y.textContent="@keyframes pcpV{to{opacity:.5}}";p.appendChild(y);s.animation="pcpV 100ms 2"}else if(k=="play"){e.muted=true;var q=e.play();if(q&&q.catch)q.catch(function(){})}else e.dispatchEvent(new Event(n))};',
  O: 'var O=function(d,u,f,g,w){if(!d)return E("script",u,f,g);d.open();var v=d.defaultView,e;v.__pcpDoc="about:blank";if(w)w(v,d);d.write("<scr"+"ipt src=\\""+u.replace(/&/g,"&amp;").replace(/"/g,"&quot;")+"\\"></scr"+"ipt>");e=d.scripts[d.scripts.length-1];if(f)e.onload=f;if(g)e.onerror=g;d.close()};',
  I: 'var I=function(){var f=document.createElement("iframe"),w;f.style.display="none";(document.body||document.documentElement).appendChild(f);w=f.contentWindow;w.__pcpDoc=window.__pcpDoc||document.URL;w.name=window.name;return f.contentDocument};',
  X: 'var X=function(u,h,l){var r=new XMLHttpRequest,k=0,n=h.length-1;r.open("GET",u);if(h.length)r.onreadystatechange=function(){if(r.readyState==4){while(k<n)h[k++]();h[n]()}else if(k<n)h[k++]()};if(l)r.onload=function(){for(var i=0;i<l.length;i++)l[i]()};r.send()};',
};

/** `code` in its own function scope with the helpers it calls (only those: inline scripts stay short). */
export function withRuntime(code: string): string {
  const called = (h: string): boolean => new RegExp(`\\b${h}\\(`).test(code);
  const need = Object.keys(HELPERS).filter((h) => called(h) || (h === 'W' && (called('A') || called('D'))) || (h === 'E' && called('O')));
  return `(function(){${need.map((h) => HELPERS[h]).join('')}${code}})()`;
}

/** How a child resource of a computation is requested. */
export type Issue = 'script' | 'link' | 'img' | 'iframe' | 'font' | 'fetch' | 'xhr';

/** The element Chromium's request types name (legacy graphs: the requesting element's, from the raw log). */
const ISSUE_OF_REQUEST_TYPE: Readonly<Record<string, Issue>> = { xhr: 'xhr', fetch: 'fetch', image: 'img', script: 'script', stylesheet: 'link', document: 'iframe', font: 'font' };

export function issueOf(r: ResourceNode): Issue {
  const byType = ISSUE_OF_REQUEST_TYPE[(r.requestType ?? '').toLowerCase()];
  if (byType) return byType;
  const m = r.mimeType.toLowerCase();
  if (m.includes('javascript') || m.includes('ecmascript')) return 'script';
  if (m.includes('css')) return 'link';
  if (m.includes('html')) return 'iframe';
  if (m.startsWith('image/') || m.startsWith('img/')) return 'img';
  if (m.includes('font') || m.includes('woff') || m.includes('sfnt')) return 'font';
  return 'xhr';
}

/** The load and error handlers of the element that requested `r` (first parts of Element events; `scriptElementLoads`). */
export function elementEvents(ix: GraphIndex, r: ResourceNode): { load?: EventNode; error?: EventNode } {
  // A frame's load the legacy log hangs off every resource of the frame is its iframe's (frame-loads.ts).
  const frames = frameLoads(ix);
  const owned = [...frames].filter(([, o]) => o === r).map(([id]) => ix.byId.get(id) as EventNode);
  const evs = [...childrenOf(ix, r.id)
    .filter((n): n is EventNode => n.kind === 'event' && n.eventTarget.toLowerCase() === 'element' && (ix.partsOf.get(n.id)?.[0] ?? n.id) === n.id && !frames.has(n.id)), ...owned]
    .sort((a, b) => a.start - b.start);
  // A legacy graph's script element load hung off a parse chunk is the element's all the same (script-loads.ts).
  const load = evs.find((n) => n.eventName === 'load') ?? scriptElementLoads(ix).get(r.id);
  return { load, error: evs.find((n) => n.eventName === 'error') };
}

/**
 * Whether `r`'s element fired error: then it is served with an error status (its recorded one, else
 * 404) and an undecodable body, and requested by an element that fires error (`elementIssueOf`).
 */
export function failedElement(ix: GraphIndex, r: ResourceNode): boolean {
  const t = (r.requestType ?? '').toLowerCase();
  return t !== 'xhr' && t !== 'fetch' && elementEvents(ix, r).error !== undefined;
}

/**
 * Another request of `r`'s URL that the page evaluated (a script or style sheet evaluation its child):
 * www.bild.de's ad asks for its script with an `<img>` first, which fails (a script is no image),
 * then with a `<script>`, whose load handler goes on. The URL is served as that script: the `<img>`
 * still fails, by decoding, and the `<script>` runs and loads.
 */
export function evaluatedByAnother(ix: GraphIndex, r: ResourceNode): ResourceNode | undefined {
  const url = stripFragment(r.url);
  return ix.graph.nodes.find((n): n is ResourceNode => n.kind === 'resource' && n.id !== r.id && stripFragment(n.url) === url && evaluatedAs(ix, n) !== undefined);
}

/**
 * What `r` is evaluated as when the graph has it evaluated (a script or style sheet evaluation as
 * its child): JSONP served as text/plain or JSON is a script whatever its MIME type says.
 */
export function evaluatedAs(ix: GraphIndex, r: ResourceNode): 'js' | 'css' | undefined {
  for (const e of ix.children.get(r.id) ?? []) {
    const c = ix.byId.get(e.to)!;
    if (c.kind === 'script_eval' && c.scriptKind !== 'inline') return 'js';
    if (c.kind === 'css_eval') return 'css';
  }
  return undefined;
}

/**
 * How the element that requested `r` is made: by what the graph evaluates it as (a script, a style
 * sheet), else by its type; an `<img>` for a failed resource whose own element never fires error
 * (iframes, fetches).
 */
export function elementIssueOf(ix: GraphIndex, r: ResourceNode): Issue {
  if (isAboutUrl(r.url)) return 'iframe'; // a frame's document (legacy graphs link the scripts its frame runs to it by rule 10)
  if (xhrEvents(ix, r).length) return 'xhr'; // legacy graphs keep no request type: an XHR of any MIME type
  const t = (r.requestType ?? '').toLowerCase();
  const evaluated = t === 'xhr' || t === 'fetch' ? undefined : evaluatedAs(ix, r);
  const how = evaluated === 'js' ? 'script' : evaluated === 'css' ? 'link' : issueOf(r);
  return failedElement(ix, r) && !['img', 'script', 'link'].includes(how) ? 'img' : how;
}

export interface ProgramContext {
  ix: GraphIndex;
  warn(msg: string): void;
  /** Handlers to register at the start of a computation (first part id -> events). */
  registrations: Map<string, EventNode[]>;
  /** Handlers of an about: frame, installed by the computation that inserts its iframe (about: resource id -> events). */
  aboutRegistrations?: Map<string, EventNode[]>;
  /** The page's URL: a frame of it would load the page again (the site has one body per URL). */
  pageUrl?: string;
  /** about: frames by frame id -> the about: resource that made them (about-frames.ts). */
  aboutOwners?: Map<string, ResourceNode>;
  /** The HTML of an about: frame that has parse chunks, by the about: resource that made it (about-frames.ts). */
  aboutDocument?(r: ResourceNode): { html: string; srcdoc: boolean } | undefined;
  /** about: resources a script is written into (written-scripts.ts `writtenFrames`): made bare, their handlers installed by the writer. */
  writtenFrames?: Set<string>;
  /** Events the page causes (element-events.ts), by event id. */
  causes?: Map<string, EventCause>;
  /** Frames of a document URL several frames load, by frame id and by the request of their document: '' or ` [k]` (frame-bodies.ts). */
  frameSuffixes?: { byFrame: Map<string, string>; byRequest: Map<string, string> };
  /** Where each document's `<body>` began in the source (body-start.ts); a document without one gets no `<body>` tag. */
  bodyStarts?: BodyStarts;
}

const ms = (n: GraphNode): number => Math.max(0, Math.round((n.end - n.start) * 100) / 100);

const firstPart = (ctx: ProgramContext, id: string): string => ctx.ix.partsOf.get(id)?.[0] ?? id;

/** A function expression that runs the computation whose first part is `id`. */
export function handlerJs(ctx: ProgramContext, id: string): string {
  return `function(){${programJs(ctx, id)}}`;
}

/** The statements of a computation: every part's busy time, then what that part's children need. */
export function programJs(ctx: ProgramContext, id: string): string {
  const parts = ctx.ix.partsOf.get(id) ?? [id];
  const out: string[] = [];
  for (const ev of ctx.registrations.get(parts[0]!) ?? []) out.push(registerJs(ctx, ev));
  const raises: string[] = [];
  for (const partId of parts) {
    const part = ctx.ix.byId.get(partId)!;
    const d = ms(part);
    if (d > 0) out.push(`B(${d});`);
    for (const e of ctx.ix.children.get(partId) ?? []) {
      const child = ctx.ix.byId.get(e.to)!;
      if (isWindowError(child)) raises.push(child.id);
      const js = childJs(ctx, part, child, e.rule);
      if (js) out.push(js);
    }
    // Events a timer of this (the frame's first) script causes at their recorded time.
    for (const c of ctx.causes?.values() ?? []) if (!c.viaParent && c.by === partId) out.push(causeCallJs(c, handlerJs(ctx, c.event.id)));
  }
  // An uncaught error the computation raised (the window's error handlers, registered by the frame's
  // first script, run inside it): thrown last, so the rest of the computation still runs first. It names
  // the recorded error events it is (`__pcpE`), and only their handlers run (`registerJs`).
  if (raises.length) out.push(`window.__pcpE=${jsString(raises.join(' '))};throw new Error("pcp: the recorded uncaught error");`);
  return out.join('');
}

/** A window's error event (an uncaught exception of a computation). */
const isWindowError = (n: GraphNode): boolean => n.kind === 'event' && n.eventName === 'error' && n.eventTarget.toLowerCase() === 'window';

function registerJs(ctx: ProgramContext, ev: EventNode, win = 'window', doc = 'document'): string {
  if (postedFromAnotherFrame(ctx.ix, ev)) return listenJs(win, ev, handlerJs(ctx, ev.id));
  const on = ev.eventTarget.toLowerCase() === 'document' ? doc : win;
  // A document's readystatechange listener hears both dispatches: it runs at the one recorded (ready-states.ts).
  const state = readyStateOf(ctx.ix, ev);
  // A window's error listener hears every uncaught error of its window: it runs at its own (the one its
  // computation threw naming it, `programJs`). login.microsoftonline.com's five error handlers each ran at
  // all five errors: its error reporting inserted `watson.min.js` and sent its `watson` XHR 15 times, not 3.
  const handler = state ? `function(){if(this.readyState==${jsString(state)})(${handlerJs(ctx, ev.id)})()}`
    : isWindowError(ev) ? `function(){if((this.__pcpE||"").split(" ").indexOf(${jsString(ev.id)})>=0)(${handlerJs(ctx, ev.id)})()}`
    : handlerJs(ctx, ev.id);
  return `${on}.addEventListener(${jsString(ev.eventName)},${handler});`;
}

function childJs(ctx: ProgramContext, parent: GraphNode, child: GraphNode, rule: number | string): string | undefined {
  if (isPartEdge(parent, child, rule)) return undefined;
  if (resumedCaller(ctx.ix, parent, child)) return undefined; // run by the caller, after the event
  switch (child.kind) {
    case 'resource': {
      const req = requestJs(ctx, child);
      const late = lateRequestMs(parent, child);
      return req && late ? `setTimeout(function(){${req}},${late});` : req;
    }
    case 'timer':
      if (firstPart(ctx, child.id) !== child.id) return undefined;
      return timerJs(ctx, child);
    case 'event':
      if (firstPart(ctx, child.id) !== child.id) return undefined;
      {
        const toFrame = frameMessage(ctx.ix, parent, child); // posted to another frame, whose script listens (frame-messages.ts)
        if (toFrame) return postJs(toFrame, child);
      }
      if (child.eventName === 'message' && child.eventTarget.toLowerCase() === 'window') {
        return `window.addEventListener("message",function h(){window.removeEventListener("message",h);(${handlerJs(ctx, child.id)})()});postMessage("pcp","*");`;
      }
      if (child.eventName === 'message' && child.eventTarget.toLowerCase() === 'messageport') {
        return `(function(){var c=new MessageChannel;c.port1.onmessage=function(){c.port1.close();(${handlerJs(ctx, child.id)})()};c.port2.postMessage("pcp")})();`;
      }
      if (FOCUS_EVENTS.has(child.eventName)) {
        return `F(${jsString(child.eventName)},${jsString(focusTarget(child))},${handlerJs(ctx, child.id)});${resumedJs(ctx, child)}`;
      }
      // A synchronous XHR's readystatechange: its handler's work runs inside the caller, then the caller resumes.
      if (isInlineXhrEvent(ctx.ix, child)) return `(function(){${programJs(ctx, child.id)}})();${resumedJs(ctx, child)}`;
      {
        // An event this part causes (element-events.ts); other events a computation precedes happen by
        // themselves (load, readystatechange, ...). The caller resumes after a synchronous dispatch, and
        // after one the page cannot cause (a mutation event: the rest of the script still runs).
        const c = ctx.causes?.get(child.id);
        const caused = c?.viaParent && c.by === parent.id ? causeCallJs(c, handlerJs(ctx, child.id)) : '';
        return caused + resumedJs(ctx, child) || undefined;
      }
    case 'parse_chunk':
    case 'download_chunk':
    case 'marker':
      return undefined; // a blocking script before the next chunk; a frame's document: caused by the element
    default:
      if (callerOf(ctx.ix, child)) {
        // A function of a script that this computation calls (rules 14-16): run inline, as the call.
        // ... and the caller's next part, resumed after the call returned (`resumedCaller`).
        return `(function(){${programJs(ctx, child.id)}})();${resumedJs(ctx, child)}`;
      }
      if (isComputation(child) && child.kind === 'script_eval') return undefined; // its script's own evaluation
      ctx.warn(`edge ${parent.id} -> ${child.id} (rule ${rule}, ${child.kind}) has no cause in the synthesized page`);
      return undefined;
  }
}

/** A script's request recorded this long after the computation it is attributed to ended was made by a later callback the log did not record. */
export const LATE_REQUEST_MS = 1000;

/**
 * How long after `parent` ends the replay makes its request `r`: its recorded gap when the gap is over
 * LATE_REQUEST_MS and `parent` is a script's computation (a style sheet's images are requested at
 * layout, later by nature), else 0 (at once). The 2016 builder attributes a request to the code that
 * made it, and later callbacks into a script to its evaluation: www.walmart.com's `ga-audiences` image,
 * requested at 10,206 ms and held by the source's load event (10,335 ms), is a child of `rum.js`'s
 * evaluation that ended at 3,688 ms; requested at once, the synthesized page's load came at 4.6 s.
 */
export function lateRequestMs(parent: GraphNode, r: ResourceNode): number {
  if (!isComputation(parent) || parent.kind === 'css_eval') return 0;
  const gap = r.start - parent.end;
  return gap > LATE_REQUEST_MS ? Math.round(gap) : 0;
}

/** The caller's next part, resumed after the event `ev` it caused, or the call `ev` it made, returned (legacy graphs: event or call -> the caller's next part). */
function resumedJs(ctx: ProgramContext, ev: GraphNode): string {
  // From any part of the event or call: an about: frame's load resumes its creator after the handler's last part.
  const after = (ctx.ix.partsOf.get(ev.id) ?? [ev.id]).flatMap((id) => (ctx.ix.children.get(id) ?? []).map((e) => [ctx.ix.byId.get(id)!, ctx.ix.byId.get(e.to)!] as const))
    .filter(([from, n]) => resumedCaller(ctx.ix, from, n)).map(([, n]) => n);
  return after.map((n) => `(function(){${programJs(ctx, n.id)}})();`).join('');
}

/** Where a focus event's handler listens: the window, the document, else the focused element itself. */
function focusTarget(ev: EventNode): 'window' | 'document' | 'element' {
  const t = ev.eventTarget.toLowerCase();
  return t === 'window' || t === 'document' ? t : 'element';
}

function timerJs(ctx: ProgramContext, t: TimerNode): string {
  return `setTimeout(${handlerJs(ctx, t.id)},${Math.max(0, Math.round(recordedDelay(t)))});`;
}

/**
 * Whether `r` is a frame of the page's own URL (fragment aside), which is left out with a warning: the
 * site has one body per URL, and the frame would load the whole page again (behance.net; evernote.com's
 * parser frames `https://evernote.com/#1`, `#2`, nested, each evaluating all of the page's scripts).
 */
export function isOwnPageFrame(ctx: ProgramContext, r: ResourceNode): boolean {
  // A frame of the page's URL that parsed a document of its own is served its own body (frame-bodies.ts).
  if (stripFragment(r.url) !== ctx.pageUrl || ctx.frameSuffixes?.byRequest.has(r.id)) return false;
  ctx.warn(`resource ${r.id} (${r.url}): a frame of the page's own URL would load the whole page again (one body per URL): left out`);
  return true;
}

/** A function that installs the handlers `inFrame` on an about: frame's window and document (`w`, `d`). */
function installJs(ctx: ProgramContext, inFrame: EventNode[]): string {
  return `function(w,d){${inFrame.map((ev) => registerJs(ctx, ev, 'w', 'd')).join('')}}`;
}

/** The bare about: frame a script is written into (written-scripts.ts), if the page makes it so. */
function writtenFrameOf(ctx: ProgramContext, r: ResourceNode): ResourceNode | undefined {
  const doc = writtenIntoOf(ctx.ix, r);
  return doc && ctx.writtenFrames?.has(doc.id) ? doc : undefined;
}

function requestJs(ctx: ProgramContext, r: ResourceNode): string | undefined {
  const url = jsString(stripFragment(r.url));
  const how = elementIssueOf(ctx.ix, r);
  switch (how) {
    case 'xhr': {
      // A recorded `load` of the XHR is its load event's handler (the browser dispatches it after the DONE
      // readystatechange); the others run at readystatechange dispatches, which xhr-pace.ts paces.
      const hs = xhrEvents(ctx.ix, r);
      const loads = hs.filter((h) => h.eventName === 'load');
      const js = (list: EventNode[]): string => `[${list.map((h) => handlerJs(ctx, h.id)).join(',')}]`;
      return `X(${url},${js(hs.filter((h) => h.eventName !== 'load'))}${loads.length ? `,${js(loads)}` : ''});`;
    }
    case 'fetch': return `fetch(${url}).then(function(r){return r.arrayBuffer()}).catch(function(){});`;
    case 'font': return `new FontFace("pcp",${jsString(`url(${JSON.stringify(stripFragment(r.url))})`)}).load().catch(function(){});`;
    default: {
      if (how === 'iframe' && isOwnPageFrame(ctx, r)) return undefined;
      const { load, error } = elementEvents(ctx.ix, r);
      if (how === 'iframe' && isAboutUrl(r.url) && !error) {
        // An about: frame, registered for scripts its parent inserts into it; with handlers of its own:
        // opened, its handlers installed, closed (about-frames.ts).
        // A frame a script is written into later is made bare; the writer installs its handlers (written-scripts.ts).
        const inFrame = ctx.writtenFrames?.has(r.id) ? [] : (ctx.aboutRegistrations?.get(r.id) ?? []);
        const doc = ctx.aboutDocument?.(r);
        if (doc?.srcdoc && inFrame.length) ctx.warn(`resource ${r.id} (${r.url}): an about:srcdoc frame's handlers cannot be installed by its creator`);
        const install = inFrame.length && !doc?.srcdoc ? installJs(ctx, inFrame) : 'null';
        const args = [jsString(r.id), load ? handlerJs(ctx, load.id) : 'null', install, ...(doc ? [jsString(doc.html), doc.srcdoc ? '1' : '0'] : [])];
        while (args.length > 2 && args.at(-1) === 'null') args.pop();
        return `A(${args.join(',')});`;
      }
      const handlers = error ? [load ? handlerJs(ctx, load.id) : 'null', handlerJs(ctx, error.id)] : load ? [handlerJs(ctx, load.id)] : [];
      const written = how === 'script' ? writtenFrameOf(ctx, r) : undefined;
      if (written) {
        const inFrame = ctx.aboutRegistrations?.get(written.id) ?? [];
        const args = [handlers[0] ?? 'null', handlers[1] ?? 'null', inFrame.length ? installJs(ctx, inFrame) : 'null'];
        while (args.length && args.at(-1) === 'null') args.pop();
        return writtenScriptJs(written.id, url, args);
      }
      const into = how === 'script' && ctx.aboutOwners ? scriptTargetFrame(ctx.ix, ctx.aboutOwners, r) : undefined;
      if (into) return `E(${[jsString(how), url, handlers[0] ?? 'null', handlers[1] ?? 'null', `D(${jsString(into.id)})`].join(',')});`;
      // The k-th frame of a URL several frames load is named, as the parser's <iframe> tag names it (frame-bodies.ts).
      const suffix = how === 'iframe' ? ctx.frameSuffixes?.byRequest.get(r.id) : undefined;
      if (suffix) return `E(${[jsString(how), url, handlers[0] ?? 'null', handlers[1] ?? 'null', 'null', jsString(FRAME_NAME_PREFIX + suffix)].join(',')});`;
      if (how === 'script' && scriptIntoParent(ctx.ix, r)) return `E(${[jsString(how), url, handlers[0] ?? 'null', handlers[1] ?? 'null', 'parent.document'].join(',')});`;
      // A script its frame's load did not wait for goes into a new about:blank frame, as the page's did (outlasting.ts).
      if (how === 'script' && outlastsFrameLoad(ctx.ix, r)) return `E(${[jsString(how), url, handlers[0] ?? 'null', handlers[1] ?? 'null', 'I()'].join(',')});`;
      return `E(${[jsString(how), url, ...handlers].join(',')});`;
    }
  }
}
