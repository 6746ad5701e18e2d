/** The trace parsed but does not hold a page load the adapter can read (e.g. no document request). */
export class TraceContentError extends Error {}
