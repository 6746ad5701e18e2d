/** The server's JSON API, as the client sees it. */
import type { Graph } from '@pcp/graph-builder';
import type { ListItem } from '../server/store.ts';
import type { SimulationResult } from '../server/whatif.ts';
import type { WhatIfRequest } from '../shared/whatifFields.ts';

export type { ListItem, SimulationResult };

async function json<T>(res: Response): Promise<T> {
  const body = (await res.json()) as T & { error?: string };
  if (!res.ok) throw new Error(body.error ?? `HTTP ${res.status}`);
  return body;
}

export async function listGraphs(): Promise<{ graphs: ListItem[]; problems: string[]; complete: boolean }> {
  return json(await fetch('/api/graphs'));
}

export async function fetchGraph(id: string): Promise<Graph> {
  return json(await fetch(`/api/graphs/${encodeURIComponent(id)}`));
}

export async function whatIf(request: WhatIfRequest): Promise<{ result: SimulationResult; elapsedMs: number }> {
  return json(await fetch('/api/whatif', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(request) }));
}

export function exportUrl(id: string, format: 'svg' | 'pdf'): string {
  return `/api/graphs/${encodeURIComponent(id)}/export?format=${format}`;
}
