/**
 * A reference graph's resources carry no request type: an image beacon served as text/plain, a frame
 * served as binary/octet-stream, a JSONP script served as JSON look like data fetches. The raw log's
 * `Element` records name the element that held each URL; the one that requested it gives the type, in
 * Chromium's names (graph format v1 `requestType`). Pure.
 */
import type { LegacyRawEvidence, RawElementUse, RawFetch } from './legacy-raw.ts';

/** Chromium's request type of what an element of this name fetches (elements that fetch the URL they name). */
export const REQUEST_TYPE_OF_ELEMENT: Readonly<Record<string, string>> = { img: 'Image', image: 'Image', script: 'Script', iframe: 'Document', frame: 'Document' };

/** Elements that fetch what they name but have no request type here: plugins (the corpus' Flash movies). */
export const UNTYPED_FETCHING_ELEMENTS: ReadonlySet<string> = new Set(['object', 'embed']);

/** 1 ms: an element made in the same instant as its request. */
const SAME_INSTANT_MS = 1;

/**
 * The element that requested `url`: among the elements naming it alone that fetch (`REQUEST_TYPE_OF_ELEMENT`,
 * `UNTYPED_FETCHING_ELEMENTS`; an element naming several URLs fetched none of them as its own: slack.com's
 * `iframe` record names the nine fonts its page's style sheet asked for, and is their fetches' `from`), with the fetch known, the one whose address the fetch names as its
 * requester, else the last made before the request (none made before: none requested it); without the
 * fetch (a memory-cache reuse), the first.
 */
export function requestingElement(ev: LegacyRawEvidence, url: string, fetch?: RawFetch): RawElementUse | undefined {
  const uses = (ev.elements.get(url) ?? []).filter((e) => e.urls === 1 && (e.name in REQUEST_TYPE_OF_ELEMENT || UNTYPED_FETCHING_ELEMENTS.has(e.name)));
  if (!fetch) return uses[0];
  const before = uses.filter((e) => e.at <= fetch.sent + SAME_INSTANT_MS);
  return before.find((e) => e.code === fetch.from) ?? before.at(-1);
}

/** The request type the requesting element gives, undefined when no element or one without a type. */
export function requestTypeOf(element: RawElementUse | undefined): string | undefined {
  return element ? REQUEST_TYPE_OF_ELEMENT[element.name] : undefined;
}
