/**
 * The event listeners on each frame's window and document at the end of the capture
 * (DOMDebugger.getEventListeners). A trace's EventDispatch names the event but not its target, and a
 * DOMContentLoaded dispatch runs the document's listeners and then the window's (it bubbles) in one
 * slice: the handler positions recorded here tell the builder which FunctionCall belongs to which
 * target (thesis Figure 3.9 keeps Document and Window DOMContentLoaded apart).
 *
 * Limits: listeners removed before the end (`once`, removeEventListener) are not seen; frames that
 * share their parent's renderer are reached only through their own target when out of process.
 */
import type { CdpConnection } from './cdp.ts';
import { withTimeout } from './timeout.ts';
import type { ListenerRecord } from './bundle.ts';

export type { ListenerRecord };

/** The protocol's EventListener carries more (passive, handler, backendNodeId): only these are kept. */
type RawListener = Omit<ListenerRecord, 'frameId' | 'target'>;

const GROUP = 'pcp-listeners';

/** Listeners of the main frame of each session ('' = the page's own session, which cdp.send omits). */
export async function collectListeners(cdp: CdpConnection, roots: Array<{ sessionId: string; frameId: string }>, waitMs: number): Promise<ListenerRecord[]> {
  const out: ListenerRecord[] = [];
  for (const { sessionId, frameId } of roots) {
    const sid = sessionId || undefined;
    for (const target of ['window', 'document'] as const) {
      try {
        const { result } = await withTimeout(
          cdp.send<{ result: { objectId?: string } }>('Runtime.evaluate', { expression: target, objectGroup: GROUP, silent: true }, sid),
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
