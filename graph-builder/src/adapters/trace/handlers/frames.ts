/**
 * Frames and the page's time 0. CommitLoad (renderer) and FrameCommittedInBrowser (browser) name each
 * frame's id, parent and url; the main document's request (the first Document request of a top-level
 * frame) gives the main frame and the origin of page time. Frames of other pages (tabs, WebUI) are
 * dropped: only those whose parent chain reaches the main frame are the page's.
 */
import type { Handler } from '../../handler.ts';
import { ready } from './run.ts';
import type { ExtractOptions, FrameInfo } from '../load.ts';
import { commitData, IGNORED_URL, isFrameCommit, isResourceSendRequest, sendRequestData, text, type ResourceSendRequest, type TraceEvent } from '../trace-events.ts';
import { TraceContentError } from '../errors.ts';

export interface FrameData {
  /** Trace clock (µs) of the main document's request: time 0 of the page. */
  origin: number;
  mainFrame: string;
  /** The page's frames by id, in commit order. */
  frames: Map<string, FrameInfo>;
  /** Trace clock (µs) -> page time (ms). */
  ms: (ts: number) => number;
  warnings: string[];
}

/** frameParents: the profiler's frame tree (out-of-process iframes name no parent in the trace). */
export type FrameOptions = Pick<ExtractOptions, 'frameParents'>;

export function frameHandler(options: FrameOptions = {}): Handler<TraceEvent, FrameData> {
  let frames = new Map<string, FrameInfo>();
  let documentSends: ResourceSendRequest[] = [];
  let committedAsSubframe = new Set<string | undefined>();
  let out: FrameData | undefined;
  return {
    kinds: ['CommitLoad', 'FrameCommittedInBrowser', 'ResourceSendRequest'],
    reset() {
      frames = new Map();
      documentSends = [];
      committedAsSubframe = new Set();
      out = undefined;
    },
    handleEvent(e) {
      if (isResourceSendRequest(e)) {
        const d = sendRequestData(e);
        if (d.resourceType === 'Document' && !IGNORED_URL.test(text(d.url) ?? '')) documentSends.push(e);
        return;
      }
      if (!isFrameCommit(e)) return;
      const d = commitData(e);
      if (e.name === 'CommitLoad' && d.isMainFrame === false) committedAsSubframe.add(text(d.frame));
      const id = text(d.frame);
      const url = text(d.url) ?? '';
      if (!id || url === '' || IGNORED_URL.test(url)) return;
      const parent = text(d.parent) ?? null;
      const known = frames.get(id);
      // An iframe first commits about:blank, then its document.
      if (!known || (known.url === 'about:blank' && url !== 'about:blank')) frames.set(id, { id, parent: parent ?? known?.parent ?? null, url });
    },
    finalize() {
      const warnings: string[] = [];
      const docs = [...documentSends].sort((a, b) => a.ts - b.ts);
      const mainDoc = docs.find((e) => {
        const f = frames.get(text(sendRequestData(e).frame) ?? '');
        return !f || f.parent === null;
      }) ?? docs[0];
      if (!mainDoc) throw new TraceContentError('the trace has no document request (was the page loaded while tracing with the devtools.timeline category?)');
      const mainFrame = text(sendRequestData(mainDoc).frame) ?? '';
      const origin = mainDoc.ts;
      if (!frames.has(mainFrame)) frames.set(mainFrame, { id: mainFrame, parent: null, url: text(sendRequestData(mainDoc).url) ?? '' });
      for (const f of frames.values()) {
        const known = options.frameParents?.get(f.id);
        if (known !== undefined) f.parent = known;
        else if (f.parent === null && f.id !== mainFrame && committedAsSubframe.has(f.id)) {
          f.parent = mainFrame;
          warnings.push(`frame ${f.url} committed out of process with no parent in the trace; attached to the main frame`);
        }
      }
      const ours = (id: string): boolean => {
        for (let f = frames.get(id), hops = 0; f && hops < 64; f = f.parent ? frames.get(f.parent) : undefined, hops++) if (f.id === mainFrame) return true;
        return false;
      };
      for (const id of [...frames.keys()]) if (!ours(id)) frames.delete(id);
      out = { origin, mainFrame, frames, ms: (ts) => (ts - origin) / 1000, warnings };
    },
    data: () => ready(out, 'frames'),
  };
}
