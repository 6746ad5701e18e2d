/**
 * Chromium's https upgrades of http URLs: the HSTS preload list (www.google-analytics.com,
 * connect.facebook.net, ... are always fetched over https) and mixed-content autoupgrade (http
 * images on https pages). The synthesized site serves each third-party http resource under https as
 * well, so the upgraded request loads as the recorded one did; the comparison names an upgraded URL
 * by the http URL the source graph recorded. Pure.
 */
import type { Graph, ResourceNode } from '@pcp/graph-builder';
import { stripFragment } from './graph-index.ts';

const hostOf = (url: string): string => {
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
};

/**
 * `responses` plus an https copy of every http response not on the page's own host (whose https
 * origin stays closed: Chromium's HTTPS-Upgrades would otherwise navigate the page itself to it, and
 * an https page may not run its http scripts) and not already served under https. When the graph
 * itself has an https response on the page's host, that origin is open anyway and the upgraded
 * navigation comes to it (www.espn.co.uk: the page's 404 there): the page's https URL then redirects
 * to its http one, which makes HTTPS-Upgrades fall back to http.
 */
export function withHttpsTwins<R extends { url: string; status: number; location?: string }>(responses: R[], pageUrl: string): R[] {
  const pageHost = hostOf(pageUrl);
  const own = new Set(responses.map((r) => r.url));
  const twins: R[] = [];
  const httpsOf = (url: string): string => `https:${url.slice('http:'.length)}`;
  // Every response of a URL gets its twin, in order (a URL served once per frame: frame-bodies.ts).
  for (const r of responses) {
    if (!r.url.startsWith('http:') || hostOf(r.url) === pageHost) continue;
    const url = httpsOf(r.url);
    if (own.has(url)) continue;
    twins.push({ ...r, url });
  }
  const served = new Set([...own, ...twins.map((t) => t.url)]);
  const page = responses.find((r) => r.url === pageUrl);
  const pageHttpsOpen = responses.some((r) => r.url.startsWith('https:') && hostOf(r.url) === pageHost);
  if (page && pageUrl.startsWith('http:') && pageHttpsOpen && !served.has(httpsOf(pageUrl))) twins.push({ ...page, url: httpsOf(pageUrl), status: 302, location: pageUrl });
  return [...responses, ...twins];
}

/**
 * `built` with every https URL that the source graph has only as http renamed to that http URL
 * (resources, script and style sheet URLs, parse chunks' documents, frames): the browser upgraded
 * the request, the page asked for the recorded URL. A URL the source requested under both schemes
 * (www.ndtv.com: `analytics.js` over http in the page, over https in an ad frame) is renamed request
 * by request: the built graph's https requests beyond the source's count, preferring those whose
 * place in time order (either scheme) is an http request's in the source; the script and style sheet
 * evaluations, parse chunks and frames of their frame follow them.
 */
export function alignUpgrades(source: Graph, built: Graph): Graph {
  const sourceUrls = new Set<string>();
  for (const n of source.nodes) if (n.kind === 'resource') sourceUrls.add(stripFragment(n.url));
  const httpOf = (u: string): string => `http:${u.slice('https:'.length)}`;
  const both = (u: string): boolean => u.startsWith('https:') && sourceUrls.has(u) && sourceUrls.has(httpOf(u));
  // Requests of a URL the source has under both schemes: as many of the built graph's https requests as
  // it has more than the source are upgrades (the browser never downgrades); which ones, by time order
  // (the built k-th request of the URL, either scheme, against the source's k-th), else the earliest.
  const byRequest = new Map<string, string>();
  const byFrame = new Map<string, string>(); // `${frame} ${https URL}` -> the http URL, where a request of its frame was renamed
  const requestsOf = (g: Graph, pick: (u: string) => boolean): ResourceNode[] =>
    g.nodes.filter((n): n is ResourceNode => n.kind === 'resource' && !n.cached && pick(stripFragment(n.url))).sort((a, b) => a.start - b.start);
  for (const u of new Set(requestsOf(built, both).map((r) => stripFragment(r.url)))) {
    const either = (x: string): boolean => x === u || x === httpOf(u);
    const recorded = requestsOf(source, either);
    const made = requestsOf(built, either);
    const https = made.filter((r) => stripFragment(r.url) === u);
    const upgrades = https.length - recorded.filter((r) => stripFragment(r.url) === u).length;
    if (upgrades <= 0) continue;
    const byOrder = https.filter((r) => recorded[made.indexOf(r)]?.url.startsWith('http:'));
    for (const r of [...byOrder, ...https.filter((x) => !byOrder.includes(x))].slice(0, upgrades)) {
      byRequest.set(r.id, httpOf(u));
      byFrame.set(`${r.frame} ${u}`, httpOf(u));
    }
  }
  const rename = (url: string, frame: string, id?: string): string => {
    const u = stripFragment(url);
    if (!u.startsWith('https:')) return url;
    if (both(u)) return (id && byRequest.get(id)) ?? byFrame.get(`${frame} ${u}`) ?? url;
    if (sourceUrls.has(u)) return url;
    const http = httpOf(u);
    return sourceUrls.has(http) ? http : url;
  };
  const nodes = built.nodes.map((n) => {
    switch (n.kind) {
      case 'resource': return { ...n, url: rename(n.url, n.frame, n.id) };
      case 'script_eval': return { ...n, scriptUrl: rename(n.scriptUrl, n.frame) };
      case 'css_eval': return { ...n, styleUrl: rename(n.styleUrl, n.frame) };
      case 'parse_chunk': return { ...n, docUrl: rename(n.docUrl, n.frame) };
      default: return n;
    }
  });
  return { ...built, nodes, frames: built.frames.map((f) => ({ ...f, url: rename(f.url, f.id) })) };
}
