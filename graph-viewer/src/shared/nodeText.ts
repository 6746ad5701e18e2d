/** Plain-text descriptions of nodes (labels, tooltips, details); never markup. */
import type { GraphNode } from '@pcp/graph-builder';
import { shortUrl } from './escape.ts';

/** The URL a node is about (resource url, script/style url, parsed document). */
export function nodeUrl(n: GraphNode): string {
  switch (n.kind) {
    case 'resource':
      return n.url;
    case 'parse_chunk':
      return n.docUrl;
    case 'script_eval':
      return n.scriptUrl;
    case 'css_eval':
      return n.styleUrl;
    default:
      return '';
  }
}

export function nodeLabel(n: GraphNode): string {
  switch (n.kind) {
    case 'resource':
      return shortUrl(n.url);
    case 'download_chunk':
      return `chunk ${n.index}`;
    case 'parse_chunk':
      return `parse L${n.startLine}-${n.endLine}`;
    case 'script_eval':
      return `js ${shortUrl(n.scriptUrl, 20)}`;
    case 'css_eval':
      return `css ${shortUrl(n.styleUrl, 20)}`;
    case 'timer':
      return `timer ${n.timerDelay}ms`;
    case 'event':
      return `${n.eventTarget}.${n.eventName}`;
    case 'marker':
      return n.markerName;
  }
}

/** Thesis rule names for edges (Table 3.1 numbers plus the named rules of the format). */
export function ruleText(rule: number | string): string {
  return typeof rule === 'number' ? `rule ${rule} (Table 3.1)` : rule;
}
