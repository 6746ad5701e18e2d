/**
 * Window messages a computation posts to another frame: its parent (`parent.postMessage`: an ad or
 * login frame answering the page, espn.co.uk's registerdisney responder) or one of its child frames
 * (the page posting into an iframe, found by the `src` its creator gave it). The handler runs in the
 * receiving frame, installed there by that frame's script (site.ts registrations) and run only for its
 * own message (the data names the event). Pure.
 */
import type { EventNode, GraphNode } from '@pcp/graph-builder';
import { jsString } from './escape.ts';
import { isComputation, type GraphIndex } from './graph-index.ts';

export type FrameMessage = { to: 'parent' } | { to: 'child'; src: string };

const isWindowMessage = (ev: GraphNode): ev is EventNode => ev.kind === 'event' && ev.eventName === 'message' && ev.eventTarget.toLowerCase() === 'window';

/** How the window message `ev`, posted by `poster`, reaches another frame; undefined when it stays in the poster's. */
export function frameMessage(ix: GraphIndex, poster: GraphNode, ev: GraphNode): FrameMessage | undefined {
  if (!isWindowMessage(ev) || poster.frame === ev.frame) return undefined;
  const parentOf = (frame: string): string | null | undefined => ix.graph.frames.find((f) => f.id === frame)?.parent;
  if (parentOf(poster.frame) === ev.frame) return { to: 'parent' };
  const src = ix.frameDoc.get(ev.frame);
  return parentOf(ev.frame) === poster.frame && src !== undefined && /^https?:/i.test(src) ? { to: 'child', src } : undefined;
}

/** Whether the window message `ev` was posted by a computation of another frame (its listener is then installed in its own frame). */
export function postedFromAnotherFrame(ix: GraphIndex, ev: GraphNode): boolean {
  return (ix.parents.get(ev.id) ?? []).some((e) => {
    const p = ix.byId.get(e.from)!;
    return isComputation(p) && frameMessage(ix, p, ev) !== undefined;
  });
}

const dataOf = (ev: EventNode): string => jsString(`pcp ${ev.id}`);

/** The poster's statement. */
export function postJs(m: FrameMessage, ev: EventNode): string {
  if (m.to === 'parent') return `parent.postMessage(${dataOf(ev)},"*");`;
  return `(function(){var f=document.getElementsByTagName("iframe");for(var i=0;i<f.length;i++)if(f[i].getAttribute("src")===${jsString(m.src)})f[i].contentWindow.postMessage(${dataOf(ev)},"*")})();`;
}

/** The receiving frame's listener on `win`: runs `handler` once, for this message only. */
export function listenJs(win: string, ev: EventNode, handler: string): string {
  return `${win}.addEventListener("message",function h(e){if(e.data!==${dataOf(ev)})return;${win}.removeEventListener("message",h);(${handler})()});`;
}
