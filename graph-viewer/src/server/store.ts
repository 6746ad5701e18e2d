/**
 * Loads catalogued graphs on demand (v1 or legacy layout, through graph-builder's loadGraph), attaches
 * the critical path computed by `criticalPath` (the function `pcp critpath` uses), keeps a few in
 * memory, and summarises the whole catalog in the background for the list page.
 */
import { type Graph, loadGraph, criticalPath } from '@pcp/graph-builder';
import { statSync } from 'node:fs';
import { summarise, type GraphSummary } from '../shared/summary.ts';
import type { Catalog, CatalogEntry } from './catalog.ts';

export interface ListItem extends Partial<GraphSummary> {
  id: string;
  name: string;
  fileBytes: number;
  status: 'pending' | 'ok' | 'error';
  error?: string;
}

export interface LoadedGraph {
  graph: Graph;
  /** The serialised graph, ready to send. */
  json: string;
}

const CACHE_SIZE = 6;

export class GraphStore {
  private readonly byId = new Map<string, CatalogEntry>();
  private readonly items = new Map<string, ListItem>();
  private readonly cache = new Map<string, LoadedGraph>();
  private summarising: Promise<void> | null = null;

  constructor(readonly catalog: Catalog) {
    for (const e of catalog.entries) {
      this.byId.set(e.id, e);
      let fileBytes = 0;
      try {
        fileBytes = statSync(e.path).size;
      } catch {
        /* reported when loaded */
      }
      this.items.set(e.id, { id: e.id, name: e.name, fileBytes, status: 'pending' });
    }
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  list(): ListItem[] {
    return [...this.items.values()];
  }

  /** Loads (or returns the cached) graph; throws with a one-line reason for a bad file. */
  get(id: string): LoadedGraph {
    const hit = this.cache.get(id);
    if (hit) {
      this.cache.delete(id);
      this.cache.set(id, hit);
      return hit;
    }
    const entry = this.byId.get(id);
    if (!entry) throw new Error(`no graph '${id}'`);
    const item = this.items.get(id)!;
    let graph: Graph;
    try {
      graph = loadGraph(entry.path);
      const cp = criticalPath(graph);
      graph = { ...graph, criticalPath: { nodes: cp.nodes, length: cp.length } };
    } catch (e) {
      item.status = 'error';
      item.error = (e as Error).message.split('\n', 1)[0];
      throw e;
    }
    Object.assign(item, summarise(graph), { status: 'ok' });
    const loaded = { graph, json: JSON.stringify(graph) };
    this.cache.set(id, loaded);
    while (this.cache.size > CACHE_SIZE) this.cache.delete(this.cache.keys().next().value!);
    return loaded;
  }

  /** Summarises every pending graph, one per event-loop turn so requests keep being served; a bad file is reported and skipped. */
  summariseAll(): Promise<void> {
    this.summarising ??= (async () => {
      for (const item of this.items.values()) {
        if (item.status !== 'pending') continue;
        await new Promise((r) => setImmediate(r));
        if (item.status !== 'pending') continue;
        try {
          const entry = this.byId.get(item.id)!;
          const graph = loadGraph(entry.path);
          const cp = criticalPath(graph);
          Object.assign(item, summarise({ ...graph, criticalPath: { nodes: cp.nodes, length: cp.length } }), { status: 'ok' });
        } catch (e) {
          item.status = 'error';
          item.error = (e as Error).message.split('\n', 1)[0];
        }
      }
    })();
    return this.summarising;
  }
}
