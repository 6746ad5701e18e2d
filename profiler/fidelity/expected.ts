/**
 * The ground-truth vocabulary: what a test page's expected.json says, written by hand from the
 * page's source. Activities are described by what a reader of the source can know (a URL, a line,
 * a timer's delay, an event's name), never by node ids, so any builder's graph can be compared.
 *
 * URLs are relative to the page's URL (or absolute, and may use `{{origin:x}}`). Lines are 1-based
 * lines of the document's source as served.
 */
import type { EdgeRule } from '@pcp/graph-builder';

interface RefBase {
  /** Restrict to activities of the frame whose document is this URL (iframes). */
  frameUrl?: string;
  /** Among several matching activities in start order, the nth (0-based). Default: any. */
  nth?: number;
}

/**
 * The parse chunk of document `docUrl` that ends at (or, failing that, contains) line `line`;
 * `line: 'last'` is the document's last chunk (it ends at end of file, past the last tag).
 */
export interface ParseChunkRef extends RefBase { kind: 'parse_chunk'; docUrl: string; line: number | 'last' }
/** A chunk of the resource's body: index 0 is the first, 'last' the last. */
export interface DownloadChunkRef extends RefBase { kind: 'download_chunk'; url: string; index: number | 'last' }
export interface ResourceRef extends RefBase { kind: 'resource'; url: string }
/** A script evaluation; inline scripts have the document's URL and kind 'inline' (use nth for the k-th). */
export interface ScriptEvalRef extends RefBase { kind: 'script_eval'; url: string; scriptKind?: string }
export interface CssEvalRef extends RefBase { kind: 'css_eval'; url: string }
/** A timer by its requested delay (ms). */
export interface TimerRef extends RefBase { kind: 'timer'; delay: number }
/**
 * An event by name and target: 'document', 'window', 'xmlhttprequest', 'messageport', or an element's
 * tag ('img', 'script', 'link', 'iframe', 'input'). A graph may name element targets generically
 * ('Element', as a trace does not say which element): such a node matches any tag, and `subject`
 * (the URL of the element's resource) then picks the event whose graph parent is that resource.
 */
export interface EventRef extends RefBase { kind: 'event'; name: string; target: string; subject?: string }
export interface MarkerRef extends RefBase { kind: 'marker'; name: string }

export type ActivityRef = ParseChunkRef | DownloadChunkRef | ResourceRef | ScriptEvalRef | CssEvalRef | TimerRef | EventRef | MarkerRef;

export interface ExpectedResource {
  url: string;
  nth?: number;
  /** The activity that made the browser request it (Table 3.1 rules 1, 2, 5-8). */
  parent: ActivityRef;
  /** Why, in words, for readers of the suite. */
  why?: string;
  /** Expected HTTP status when not 200 (e.g. 404 for a deliberately missing image). */
  status?: number;
}

export interface ExpectedEdge {
  from: ActivityRef;
  to: ActivityRef;
  /** When given, the graph's edge must carry this rule too. */
  rule?: EdgeRule;
  why?: string;
}

export interface Expected {
  /** Page file relative to the site directory (default index.html). */
  page?: string;
  /**
   * Capture options the page needs beyond the default: taskFlows when the only record of a dependency
   * is a posted-task flow (pcp profile --task-flows).
   */
  capture?: { taskFlows?: boolean };
  description: string;
  /** Table 3.1 rules (1-25) this page is the ground truth for. */
  rules: number[];
  /** Appendix A events it exercises, as 'target.name' (e.g. 'window.load', 'xmlhttprequest.readystatechange'). */
  events: string[];
  /** Every resource the page loads except its main document (and the favicon). */
  resources: ExpectedResource[];
  edges: ExpectedEdge[];
}

export function describeRef(r: ActivityRef): string {
  switch (r.kind) {
    case 'parse_chunk': return `parse_chunk(${r.docUrl}:${String(r.line)})`;
    case 'download_chunk': return `download_chunk(${r.url}#${r.index})`;
    case 'resource': return `resource(${r.url})`;
    case 'script_eval': return `script_eval(${r.url}${r.scriptKind ? ' ' + r.scriptKind : ''}${r.nth !== undefined ? ' #' + r.nth : ''})`;
    case 'css_eval': return `css_eval(${r.url})`;
    case 'timer': return `timer(${r.delay}ms${r.nth !== undefined ? ' #' + r.nth : ''})`;
    case 'event': return `event(${r.target}.${r.name}${r.subject ? ' of ' + r.subject : ''}${r.nth !== undefined ? ' #' + r.nth : ''}${r.frameUrl ? ' in ' + r.frameUrl : ''})`;
    case 'marker': return `marker(${r.name})`;
  }
}
