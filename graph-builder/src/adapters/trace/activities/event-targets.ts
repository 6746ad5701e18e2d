/**
 * What a dispatch was about, which trace events do not name: an event's DOM target (Appendix A Table A.2)
 * and the callbacks the trace shows no dispatch for.
 */
import { requestFor, type FrameInfo, type TraceRequest, type Slice, type TraceLoad } from '../load.ts';
import { sameDoc, type ActivityContext, type ExtraInitiators } from './context.ts';
import { scriptRunBefore, siblingEvent } from './slice-tree.ts';

/** The tag of the element whose resource it is, for element events (Appendix A Table A.2). */
const TAG_OF_TYPE: Record<string, string> = { Stylesheet: 'link', Script: 'script', Image: 'img', Document: 'iframe', Media: 'video', Font: 'link' };
const MOJO_WATCHER = 'mojo/public/cpp/system/simple_watcher.cc';

/**
 * What a dispatch-less callback was. A window.postMessage delivery is a V8 async task named
 * 'postMessage'. A MessagePort message runs in a task that the receiving port's mojo watcher posted
 * (SimpleWatcher::Notify) from inside the sender's script: the sender wrote to the port's local pipe.
 * Anything else stays a window callback.
 */
export function callbackEvent(sl: Slice): { eventName: string; eventTarget: string } {
  if (sl.asyncTask === 'postMessage') return { eventName: 'message', eventTarget: 'Window' };
  if (sl.postedFrom?.startsWith(MOJO_WATCHER)) return { eventName: 'message', eventTarget: 'MessagePort' };
  return { eventName: 'callback', eventTarget: 'Window' };
}

/**
 * A test of whether a 'load' dispatch is the window's (which evidence it uses is settled once per
 * trace). Chromium ends a frame's load in one task: window load,
 * then (for an iframe) its owner element's load in the parent, then pageshow. So the window's load is
 * followed by pageshow, or by the owner's load and then pageshow. Traces without pageshow fall back on
 * the frame's load mark, which Chromium sets around the window load dispatch (an element's load that
 * happens to run then is mistaken for it).
 */
export function windowLoadTest(load: TraceLoad): (sl: Slice, frame: string) => boolean {
  const slices = load.slices;
  if (slices.some((x) => x.eventType === 'pageshow')) {
    return (sl) => {
      const next = siblingEvent(slices, sl, 1);
      if (next?.eventType === 'pageshow') return siblingEvent(slices, sl, -1)?.eventType !== 'load';
      return next?.eventType === 'load' && siblingEvent(slices, next, 1)?.eventType === 'pageshow';
    };
  }
  return (sl, frame) => {
    const mark = load.marks.find((m) => m.frame === frame && m.name === 'load');
    return mark !== undefined && mark.time >= sl.start - 2 && mark.time <= sl.end + 2;
  };
}

/**
 * The frame whose load a window `load` dispatch ends, by the load mark Chromium sets in that task (the
 * window's load, an iframe's owner element load in the parent, the frame's MarkLoad, pageshow): the first
 * load mark on the dispatch's thread from 2 ms before it to that pageshow. For a dispatch that no
 * page-code call of its own names a frame for: listeners called from inside a script (V8 records no
 * FunctionCall for a call from JavaScript), as when an ad script closes the about:blank frame document it
 * wrote and the frame loads at once (www.wikia.com: such loads inside the `gampad/ads` scripts were taken
 * for the main frame's, and the first of them for its load marker, 4 s before the page's load).
 */
export function windowLoadFrame(load: TraceLoad, sl: Slice): string | undefined {
  if (sl.kind !== 'event' || sl.eventType !== 'load') return undefined;
  const next = siblingEvent(load.slices, sl, 1);
  const show = next?.eventType === 'pageshow' ? (siblingEvent(load.slices, sl, -1)?.eventType === 'load' ? undefined : next)
    : next?.eventType === 'load' ? siblingEvent(load.slices, next, 1) : undefined;
  if (show?.eventType !== 'pageshow') return undefined;
  return load.marks.find((m) => m.name === 'load' && m.thread === sl.thread && m.time >= sl.start - 2 && m.time <= show.start + 1e-6)?.frame;
}

/** A script's URL as its run and its request both name it: fragment dropped, and the scheme (an http request the browser upgraded runs as https). */
const runKey = (url: string): string => url.split('#')[0]!.replace(/^https?:/, '');

/**
 * Events' DOM targets, in dispatch order: completion events of the frame's document and window by name
 * and timing, a message to the window, else the element whose resource loaded (or failed): the element
 * on the line of an inline handler (onload="…" reports the document and the element's line; of several
 * there, the script that ran right before the dispatch), else for a load right after a script ran, that script's (a script element's load follows its evaluation in the same
 * task; the download that finished last may be another script's, still waiting to run), else the
 * resource that finished last before the dispatch and no earlier element event claimed (a script only once
 * it ran), of the dispatch's own frame when it has one (`ofFrame`).
 */
export class EventTargets {
  private readonly isWindowLoad: (sl: Slice, frame: string) => boolean;
  private readonly claimed = new Set<TraceRequest>();
  private readonly requests: TraceRequest[];
  private readonly resId: Map<TraceRequest, string>;
  private readonly extra: ExtraInitiators | undefined;
  private readonly slices: Slice[];
  /** Script evaluations by URL (fragment dropped). */
  private readonly runs = new Map<string, Slice[]>();
  private readonly frames: Map<string, FrameInfo>;

  constructor(ctx: ActivityContext) {
    this.slices = ctx.slices;
    for (const x of ctx.slices) {
      if (x.kind !== 'script' || !x.url) continue;
      const u = runKey(x.url);
      (this.runs.get(u) ?? this.runs.set(u, []).get(u)!).push(x);
    }
    this.frames = new Map(ctx.load.frames.map((f) => [f.id, f]));
    this.isWindowLoad = windowLoadTest(ctx.load);
    this.requests = ctx.requests;
    this.resId = ctx.resId;
    this.extra = ctx.options.extraInitiators;
  }

  /**
   * Whether the script `r` brought ran (an evaluation of its URL after its download) by `t`: a script
   * element's load follows its script's run, so a script downloaded but not yet run is not the element
   * a load dispatch is about (www.livejournal.com: a JSONP script finished downloading just before two
   * images' loads and ran after them; the images' loads took it as the resource that finished last).
   */
  private ranBy(r: TraceRequest, t: number): boolean {
    const done = r.finish ?? r.send;
    return [r.url, ...(r.redirectedFrom ?? [])].some((u) => (this.runs.get(runKey(u)) ?? []).some((x) => x.start >= done - 1e-6 && x.end <= t + 1e-6));
  }

  /**
   * Whether `r`'s element is in a document a handler of `frame` is given to: `frame`'s own (an iframe's
   * document request is its frame's, its element the parent's), or an about: frame inside it, whose
   * creator installs the handlers (ad code; synth/src/about-frames.ts). Frames of one site share a
   * renderer thread: www.2ch.net's two ad frames load the same 18 images, and the one that finished last
   * of either frame took the other frame's load (60 of 91 element loads).
   */
  private ofFrame(r: TraceRequest, frame: string): boolean {
    const own = r.resourceType === 'Document' ? this.frames.get(r.frame)?.parent ?? undefined : r.frame;
    if (own === frame) return true;
    const f = own === undefined ? undefined : this.frames.get(own);
    return f !== undefined && f.parent === frame && /^about:/i.test(f.url);
  }

  /**
   * The target of event slice `sl` in `frame` whose first handler is `handler`; subjects are resource ids.
   * `after`: the script run the dispatch follows in its task, when that run is what orders it (a script
   * element inserted again, its script served from the memory cache with no request of its own).
   */
  targetOf(sl: Slice, frame: string, handler: Slice | undefined): { target: string; subjects: string[]; after?: Slice } {
    const type = sl.eventType ?? '';
    if (sl.windowTarget) return { target: 'Window', subjects: [] };
    if (type === 'DOMContentLoaded' || type === 'readystatechange' || type === 'visibilitychange') return { target: 'Document', subjects: [] };
    if (type === 'message') return { target: 'Window', subjects: [] };
    if (type === 'load' && this.isWindowLoad(sl, frame)) return { target: 'Window', subjects: [] };
    if (type !== 'load' && type !== 'error') return { target: 'Element', subjects: [] };
    const candidates = this.requests.filter((r) => (r.finish ?? r.send) <= sl.start + 1e-6 && r.resourceType !== 'XHR' && r.resourceType !== 'Fetch' && !this.claimed.has(r)
      && (type !== 'load' || r.resourceType !== 'Script' || this.ranBy(r, sl.start)));
    // Where the element's tag is: the parser initiator, or for an iframe's document the DevTools log's.
    const tagAt = (r: TraceRequest) => (r.initiator?.type === 'parser' ? r.initiator : this.extra?.get(r.requestId));
    const byLine = handler?.url && handler.line !== undefined
      ? candidates.filter((r) => {
          const at = tagAt(r);
          return at?.url !== undefined && sameDoc(at.url, handler.url!) && at.line === handler.line;
        })
      : [];
    const ran = type === 'load' ? scriptRunBefore(this.slices, sl) : undefined;
    // A script request of the run that just ended (its URL, or a redirect it was sent under).
    const ofRan = (r: TraceRequest) => r.resourceType === 'Script' && (sameDoc(r.url, ran!.url!) || requestFor(r, ran!.url!));
    const byScript = ran?.url ? candidates.filter(ofRan) : [];
    // Both: several tags on the handler's line (a page written on few lines), one of them the script that
    // just ran (www.livejournal.com: a JSONP script's onload, given to an image of the same line that
    // finished later).
    const both = byLine.filter((r) => byScript.includes(r));
    // The line is the element's only for an attribute handler (Chromium names its function `onload`); a
    // handler function written in an inline script reports that script's line, which may hold other tags
    // (www.reddit.com: a frame's `display.js` tag on the line of the inline script whose function handled
    // the load of the `bid` script that had just run). The same task's script run then decides.
    const attribute = handler?.functionName === `on${type}`;
    const ofFrame = candidates.filter((r) => this.ofFrame(r, frame));
    const pool = both.length ? both : byLine.length && (attribute || !byScript.length) ? byLine : byScript.length ? byScript : ofFrame.length ? ofFrame : candidates;
    // The script that just ran is one an earlier element already loaded: an element inserted again, its
    // script served from the memory cache (no request; synth-microsoftonline: watson.min.js inserted five
    // times, the repeats' loads took other scripts' downloads, then none). Its load follows that run.
    if (ran?.url && !byScript.length && !(attribute && byLine.length)) {
      const repeat = latest(this.requests.filter((r) => this.claimed.has(r) && ofRan(r) && (r.finish ?? r.send) <= ran.start + 1e-6));
      if (repeat) return { target: 'script', subjects: [this.resId.get(repeat)!], after: ran };
    }
    const best = latest(pool);
    if (!best) return { target: 'Element', subjects: [] };
    this.claimed.add(best);
    return { target: TAG_OF_TYPE[best.resourceType] ?? 'Element', subjects: [this.resId.get(best)!] };
  }
}

/** The request that finished last. */
function latest(requests: TraceRequest[]): TraceRequest | undefined {
  let best: TraceRequest | undefined;
  for (const r of requests) if (!best || (r.finish ?? r.send) > (best.finish ?? best.send)) best = r;
  return best;
}
