/**
 * The record kinds of the patched-Chromium (WProf-derived) log, one JSON object per line keyed by kind,
 * with the fields each kind must carry. Meanings were inferred from the 2016 corpus and thesis ch. 3:
 * pointers (`code`, `from`, `comp`, `target`) are C++ object addresses, "(nil)" when absent, and may be
 * reused by later objects; times are seconds on the browser's monotonic clock.
 */

export interface RawFrame { code: string; id: number; parent: string; loadTime: number }
export interface RawFrameChange { code: string; url: string; comp: string }
export interface RawResource {
  id: number; url: string; frame: string; sentTime: number; recieveTime: number; len: number; from: string;
  mimeType: string; httpStatus: number; httpMethod: string; cached: number; receiveHeadersEnd?: number; requestTime?: number;
}
export interface RawReceivedChunk { resourceId: number; receivedTime: number; len: number }
/** A memory-cache reuse; only what identifies it is required (the rest is taken from the fetch it reuses). */
export interface RawCached { id: number; url: string; from: string; accessTime: number; mimeType?: string; len?: number; httpMethod?: string; frame?: string }
export interface RawObjectHash {
  code: string; comp: string; doc: string; frame: string; row: number; column: number; tagName: string;
  startTime: number; endTime: number; urls: string[]; pos: number; isStartTag: number; isFragment: number;
}
export interface RawElement { code: string; comp: string; doc: string; frame: string; name: string; startTime: number; endTime: number; urls: string[] }
export interface RawComputation {
  type: string; code: string; from?: string; target?: string; targetType?: string; name?: string; info?: string;
  docUrl: string; frame: string; startTime: number; endTime: number; urlRecalcStyle?: string; urls: string[];
}
export interface RawPreload { code: string; scriptCode: string; docUrl: string; url: string; tag: string; row: number; column: number; time: number }
export interface RawHOL { type: number; docUrl: string; code: string }

type FieldType = 'string' | 'number' | 'array';
/** Required fields per object-valued record kind (extra fields are allowed and ignored). */
export const REQUIRED_FIELDS: Record<string, Record<string, FieldType>> = {
  Frame: { code: 'string', id: 'number', parent: 'string', loadTime: 'number' },
  FrameChange: { code: 'string', url: 'string', comp: 'string' },
  Resource: {
    id: 'number', url: 'string', frame: 'string', sentTime: 'number', recieveTime: 'number', len: 'number',
    from: 'string', mimeType: 'string', httpStatus: 'number', httpMethod: 'string', cached: 'number',
  },
  ReceivedChunk: { resourceId: 'number', receivedTime: 'number', len: 'number' },
  Cached: { id: 'number', url: 'string', from: 'string', accessTime: 'number' },
  ObjectHash: {
    code: 'string', comp: 'string', doc: 'string', frame: 'string', row: 'number', column: 'number', tagName: 'string',
    startTime: 'number', endTime: 'number', urls: 'array', pos: 'number', isStartTag: 'number',
  },
  Element: { code: 'string', comp: 'string', doc: 'string', frame: 'string', name: 'string', startTime: 'number', endTime: 'number' },
  Computation: { type: 'string', code: 'string', docUrl: 'string', frame: 'string', startTime: 'number', endTime: 'number' },
  Preload: { code: 'string', scriptCode: 'string', docUrl: 'string', url: 'string', tag: 'string', row: 'number', column: 'number', time: 'number' },
  HOL: { type: 'number', docUrl: 'string', code: 'string' },
};
const FIELD_LISTS = new Map(Object.entries(REQUIRED_FIELDS).map(([k, f]) => [k, Object.entries(f)]));

/** Scalar-valued record kinds. */
export const SCALAR_KINDS: Record<string, 'string' | 'number'> = { page: 'string', DOMLoad: 'number', Complete: 'string' };

/** Returns a description of what is wrong with `value` as a `kind` record, or undefined when it is well-formed. */
export function checkRecord(kind: string, value: unknown): string | undefined {
  const scalar = SCALAR_KINDS[kind];
  if (scalar) return typeof value === scalar ? undefined : `${kind} record must be a ${scalar}`;
  const fields = REQUIRED_FIELDS[kind];
  if (!fields) return `unknown record kind '${kind}'`;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return `${kind} record must be an object`;
  const obj = value as Record<string, unknown>;
  for (const [name, type] of FIELD_LISTS.get(kind)!) {
    const v = obj[name];
    if (v === undefined) return `${kind} record lacks field '${name}'`;
    const ok = type === 'array' ? Array.isArray(v) : type === 'number' ? typeof v === 'number' && Number.isFinite(v) : typeof v === type;
    if (!ok) return `${kind} field '${name}' must be ${type === 'array' ? 'an array' : `a ${type}`}`;
  }
  return undefined;
}

export const NIL = '(nil)';
export const isNil = (p: string | undefined): boolean => p === undefined || p === NIL || p === '' || p === '0x0';
