/** Reading untyped DevTools Protocol params. */

/** A protocol params object. */
export type Params = Record<string, unknown>;

/** The value when it is a string, else ''. */
export const str = (v: unknown): string => (typeof v === 'string' ? v : '');
