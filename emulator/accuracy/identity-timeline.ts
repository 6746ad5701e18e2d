/**
 * A recorded load and its emulation side by side, node by node, on one clock (ms from navigation start):
 * each request, download, computation and event marker with its recorded and emulated start and end, and
 * the first node (by recorded end) where the emulation runs ahead of the recording — where to look for what
 * the emulator misses. Pure.
 */
import type { Graph, GraphNode } from '@pcp/graph-builder';
import type { SimResult } from '../src/simulator.ts';

export interface TimelineRow {
  id: string;
  kind: GraphNode['kind'];
  /** What the node is: a URL's last segment, an event's name, a marker's. */
  label: string;
  recordedStart: number;
  recordedEnd: number;
  /** A resource's first byte as recorded (`responseStart`). */
  recordedFirstByte?: number;
  /** Absent when the emulation did not run the node. */
  emulatedStart?: number;
  emulatedEnd?: number;
}

function labelOf(x: GraphNode): string {
  const name = (u: string): string => u.replace(/[?#].*$/, '').split('/').filter(Boolean).pop() ?? u;
  switch (x.kind) {
    case 'resource':
      return name(x.url);
    case 'script_eval':
      return name(x.scriptUrl);
    case 'event':
      return x.eventName;
    case 'marker':
      return x.markerName;
    case 'timer':
      return `timer ${x.timerDelay} ms`;
    default:
      return '';
  }
}

/**
 * The rows, in recorded start order. The recording's clock starts `navigation.navigationStartOffset` after
 * navigation start, the emulation's `result.navigationStartOffset` after it. Empty download chunks (a
 * parse chunk's zero-byte placeholder) are left out. The graph must record its navigation.
 */
export function identityTimeline(graph: Graph, result: SimResult): TimelineRow[] {
  const nav = graph.navigation;
  if (!nav) throw new Error('the graph records no navigation: no common clock');
  const rec = nav.navigationStartOffset;
  const emu = result.navigationStartOffset ?? rec;
  const emulated = new Map(result.nodes.map((n) => [n.id, n]));
  const rows: TimelineRow[] = [];
  for (const x of graph.nodes) {
    if (x.kind === 'download_chunk' && x.size === 0) continue;
    const e = emulated.get(x.id);
    const row: TimelineRow = { id: x.id, kind: x.kind, label: labelOf(x), recordedStart: rec + x.start, recordedEnd: rec + x.end };
    if (x.kind === 'resource' && x.responseStart !== undefined) row.recordedFirstByte = rec + x.responseStart;
    if (e && Number.isFinite(e.end)) {
      row.emulatedStart = emu + e.start;
      row.emulatedEnd = emu + e.end;
    }
    rows.push(row);
  }
  return rows.sort((a, b) => a.recordedStart - b.recordedStart || a.recordedEnd - b.recordedEnd);
}

/** The first row, by recorded end, whose emulated end is more than `marginMs` before its recorded end. */
export function firstAhead(rows: readonly TimelineRow[], marginMs: number): TimelineRow | undefined {
  return [...rows]
    .sort((a, b) => a.recordedEnd - b.recordedEnd)
    .find((r) => r.emulatedEnd !== undefined && r.recordedEnd - r.emulatedEnd > marginMs);
}

/** A fixed-width table of the rows and a line naming the first node that runs ahead. */
export function formatTimeline(rows: readonly TimelineRow[], marginMs: number): string {
  const f = (v: number | undefined): string => (v === undefined ? '-' : v.toFixed(1)).padStart(8);
  const lines = [`${'node'.padEnd(26)}${'kind'.padEnd(15)}${'rec start'.padStart(10)}${'1st byte'.padStart(9)}${'rec end'.padStart(8)}${'emu start'.padStart(10)}${'emu end'.padStart(8)}${'ahead'.padStart(8)}  what`];
  for (const r of rows) {
    const ahead = r.emulatedEnd === undefined ? undefined : r.recordedEnd - r.emulatedEnd;
    lines.push(`${r.id.slice(0, 25).padEnd(26)}${r.kind.padEnd(15)}${f(r.recordedStart).padStart(10)}${f(r.recordedFirstByte).padStart(9)}${f(r.recordedEnd)}${f(r.emulatedStart).padStart(10)}${f(r.emulatedEnd)}${f(ahead)}  ${r.label}`);
  }
  const first = firstAhead(rows, marginMs);
  lines.push(first ? `first ahead by more than ${marginMs} ms: ${first.id} (${first.label || first.kind}), ${(first.recordedEnd - first.emulatedEnd!).toFixed(1)} ms early` : `the emulation is nowhere more than ${marginMs} ms ahead`);
  return lines.join('\n');
}
