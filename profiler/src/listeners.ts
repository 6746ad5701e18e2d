/**
 * The event listeners on each frame's window and document at the end of the capture
 * (DOMDebugger.getEventListeners). A trace's EventDispatch names the event but not its target, and a
 * DOMContentLoaded dispatch runs the document's listeners and then the window's (it bubbles) in one
 * slice: the handler positions recorded here tell the builder which FunctionCall belongs to which
 * target (thesis Figure 3.9 keeps Document and Window DOMContentLoaded apart).
 *
 * Each frame is reached in its own main world: an out-of-process iframe through its own target, a frame
 * in its parent's renderer (same-site, or any iframe without site isolation) through that renderer's
 * session and the frame's default execution context (`inProcessFrameRoots`).
 *
 * Limits: listeners removed before the end (`once`, removeEventListener) are not seen.
 */
import type { CdpConnection } from './cdp.ts';
import { withTimeout } from './timeout.ts';
import type { ListenerRecord } from './bundle.ts';

export type { ListenerRecord };

/** The protocol's EventListener carries more (passive, handler, backendNodeId): only these are kept. */
type RawListener = Omit<ListenerRecord, 'frameId' | 'target'>;

const GROUP = 'pcp-listeners';

/** A frame whose listeners are asked for: its session, and its main world's context when not the session's main frame. */
export interface ListenerRoot {
  sessionId: string;
  frameId: string;
  contextId?: number;
}

/** A frame's default (main world) execution context, from Runtime.executionContextCreated. */
export interface FrameContext {
  sessionId: string;
  contextId: number;
}

/** The frame's default context Runtime.executionContextCreated announces, if it is one. Pure. */
export function defaultFrameContext(params: { context?: { id?: unknown; auxData?: { isDefault?: unknown; frameId?: unknown } } }): { frameId: string; contextId: number } | undefined {
  const c = params.context;
  const aux = c?.auxData;
  if (aux?.isDefault !== true || typeof aux.frameId !== 'string' || typeof c?.id !== 'number') return undefined;
  return { frameId: aux.frameId, contextId: c.id };
}

/**
 * The frames that run in another frame's renderer (not the main frame, not a child target's root), each
 * with the last default context its renderer announced for it. Pure.
 */
export function inProcessFrameRoots(frames: ReadonlyArray<{ id: string; outOfProcess: boolean }>, mainFrameId: string, contexts: ReadonlyMap<string, FrameContext>): ListenerRoot[] {
  const out: ListenerRoot[] = [];
  for (const f of frames) {
    const ctx = contexts.get(f.id);
    if (f.id !== mainFrameId && !f.outOfProcess && ctx) out.push({ sessionId: ctx.sessionId, frameId: f.id, contextId: ctx.contextId });
  }
  return out;
}

/** Listeners of each root frame ('' = the page's own session, which cdp.send omits). */
export async function collectListeners(cdp: CdpConnection, roots: readonly ListenerRoot[], waitMs: number): Promise<ListenerRecord[]> {
  const out: ListenerRecord[] = [];
  for (const { sessionId, frameId, contextId } of roots) {
    const sid = sessionId || undefined;
    for (const target of ['window', 'document'] as const) {
      try {
        const { result } = await withTimeout(
          cdp.send<{ result: { objectId?: string } }>('Runtime.evaluate', { expression: target, objectGroup: GROUP, silent: true, ...(contextId !== undefined ? { contextId } : {}) }, sid),
          waitMs,
          `evaluate ${target}`,
        );
        if (!result.objectId) continue;
        const { listeners } = await withTimeout(
          cdp.send<{ listeners: RawListener[] }>('DOMDebugger.getEventListeners', { objectId: result.objectId }, sid),
          waitMs,
          'getEventListeners',
        );
        for (const l of listeners) {
          out.push({ frameId, target, type: l.type, useCapture: l.useCapture, once: l.once, scriptId: l.scriptId, lineNumber: l.lineNumber, columnNumber: l.columnNumber });
        }
      } catch {
        // A detached or crashed frame: its listeners are simply unknown.
      }
    }
    await cdp.send('Runtime.releaseObjectGroup', { objectGroup: GROUP }, sid).catch(() => {});
  }
  return out;
}
