import { readFileSync } from 'node:fs';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { Graph } from './types.ts';

export const SCHEMA_PATH = new URL('../../schema/graph-v1.schema.json', import.meta.url);

let compiled: ValidateFunction | undefined;

function schemaValidator(): ValidateFunction {
  if (!compiled) {
    const ajv = new Ajv({ allErrors: true, strict: false });
    compiled = ajv.compile(JSON.parse(readFileSync(SCHEMA_PATH, 'utf8')) as object);
  }
  return compiled!;
}

export interface ValidationResult {
  ok: boolean;
  errors: string[];
}

function describe(e: ErrorObject): string {
  return `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`;
}

/**
 * Schema validation plus the referential checks a schema cannot express:
 * unique node ids, edges and markers that name existing nodes, nodes in known frames, end >= start.
 */
export function validateGraph(data: unknown, maxErrors = 20): ValidationResult {
  const validate = schemaValidator();
  if (!validate(data)) {
    return { ok: false, errors: (validate.errors ?? []).slice(0, maxErrors).map(describe) };
  }
  const g = data as Graph;
  const errors: string[] = [];
  const push = (msg: string) => {
    if (errors.length < maxErrors) errors.push(msg);
  };
  const ids = new Set<string>();
  const frameIds = new Set(g.frames.map((f) => f.id));
  for (const f of g.frames) {
    if (f.parent !== null && !frameIds.has(f.parent)) push(`frame ${f.id} has unknown parent ${f.parent}`);
  }
  for (const n of g.nodes) {
    if (ids.has(n.id)) push(`duplicate node id ${n.id}`);
    ids.add(n.id);
    if (!frameIds.has(n.frame)) push(`node ${n.id} is in unknown frame ${n.frame}`);
    if (!(n.end >= n.start)) push(`node ${n.id} ends (${n.end}) before it starts (${n.start})`);
  }
  for (const e of g.edges) {
    if (!ids.has(e.from)) push(`edge ${e.from} -> ${e.to} starts at an unknown node`);
    if (!ids.has(e.to)) push(`edge ${e.from} -> ${e.to} ends at an unknown node`);
  }
  for (const [name, id] of Object.entries(g.markers)) {
    if (!ids.has(id)) push(`marker ${name} names unknown node ${id}`);
  }
  if (g.root !== undefined && !ids.has(g.root)) push(`root names unknown node ${g.root}`);
  return { ok: errors.length === 0, errors };
}

export class InvalidGraphError extends Error {
  constructor(
    public readonly source: string,
    public readonly errors: string[],
  ) {
    super(`${source} is not a valid PCP graph v1: ${errors.slice(0, 3).join('; ')}${errors.length > 3 ? ` (+${errors.length - 3} more)` : ''}`);
  }
}

export function assertValidGraph(data: unknown, source = 'graph'): Graph {
  const r = validateGraph(data);
  if (!r.ok) throw new InvalidGraphError(source, r.errors);
  return data as Graph;
}
