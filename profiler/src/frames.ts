/**
 * frames.json: every frame of the load, the page's tree plus each out-of-process iframe's own tree,
 * joined by frame id, and the frames that came and went known only from the log. `joinFrames` is pure;
 * `collectFrames` asks each session for its tree.
 */
import type { LaunchedBrowser } from './chromium.ts';
import type { BundleFrame, DevtoolsLogEntry, FramesFile } from './bundle.ts';
import { withTimeout } from './timeout.ts';
import { str } from './protocol-values.ts';

/** Page.getFrameTree's answer. */
export interface RawFrameTree {
  frame: { id: string; parentId?: string; url: string; urlFragment?: string; name?: string; securityOrigin?: string; mimeType?: string; loaderId?: string };
  childFrames?: RawFrameTree[];
}

/** One session's frame tree: `sessionId` '' for the page's own, `outOfProcess` for a child iframe target's. */
export interface SessionTree {
  tree: RawFrameTree;
  sessionId: string;
  outOfProcess: boolean;
}


/** The child sessions attached to out-of-process iframes. */
export function iframeSessions<T extends { targetType: string }>(sessions: Map<string, T>): Array<[string, T]> {
  return [...sessions].filter(([, v]) => v.targetType === 'iframe');
}

/** The frame tree file from the sessions' trees (the page's first) and the log. Pure. */
export function joinFrames(trees: readonly SessionTree[], log: readonly DevtoolsLogEntry[], mainFrameId: string): FramesFile {
  const byId = new Map<string, BundleFrame>();
  const walk = (t: RawFrameTree, sessionId: string, outOfProcess: boolean, parentId: string | null): void => {
    const f = t.frame;
    const prev = byId.get(f.id);
    // A child target's own view of its root frame is the authoritative one (url, origin).
    if (!prev || outOfProcess) {
      byId.set(f.id, {
        id: f.id, parentId: f.parentId ?? parentId ?? prev?.parentId ?? null, url: f.url + (f.urlFragment ?? ''), name: f.name,
        securityOrigin: f.securityOrigin, mimeType: f.mimeType, loaderId: f.loaderId, outOfProcess: outOfProcess || Boolean(prev?.outOfProcess), sessionId,
      });
    }
    for (const c of t.childFrames ?? []) walk(c, sessionId, false, f.id);
  };
  for (const { tree, sessionId, outOfProcess } of trees) walk(tree, sessionId, outOfProcess, null);
  // Frames that came and went (or whose target detached) are known from the log's frameAttached/frameNavigated.
  for (const e of log) {
    if (e.method === 'Page.frameAttached') {
      const id = str(e.params.frameId);
      if (!byId.has(id)) byId.set(id, { id, parentId: str(e.params.parentFrameId) || null, url: '', outOfProcess: false, sessionId: e.sessionId ?? '' });
    } else if (e.method === 'Page.frameNavigated') {
      const f = (e.params.frame ?? {}) as RawFrameTree['frame'];
      const known = byId.get(f.id);
      if (!known) byId.set(f.id, { id: f.id, parentId: f.parentId ?? null, url: f.url, securityOrigin: f.securityOrigin, mimeType: f.mimeType, outOfProcess: Boolean(e.sessionId), sessionId: e.sessionId ?? '' });
      else if (!known.url) known.url = f.url;
    }
  }
  return { mainFrameId: mainFrameId || null, frames: [...byId.values()] };
}

/** Asks the page's session and each out-of-process iframe's for its frame tree (`waitMs` each), then joins. */
export async function collectFrames(
  browser: LaunchedBrowser, pageSession: string, sessions: Map<string, { targetType: string }>, log: DevtoolsLogEntry[], mainFrameId: string, waitMs: number,
): Promise<FramesFile> {
  const roots: [string, boolean][] = [[pageSession, false], ...iframeSessions(sessions).map(([k]) => [k, true] as [string, boolean])];
  const trees: SessionTree[] = [];
  for (const [sid, oop] of roots) {
    try {
      const { frameTree } = await withTimeout(browser.cdp.send<{ frameTree: RawFrameTree }>('Page.getFrameTree', {}, sid), waitMs, 'getFrameTree');
      trees.push({ tree: frameTree, sessionId: sid === pageSession ? '' : sid, outOfProcess: oop });
    } catch {
      // Detached meanwhile: its frames still come from the log.
    }
  }
  return joinFrames(trees, log, mainFrameId);
}
