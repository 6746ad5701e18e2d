/** SITES.txt: one URL a line, blank lines and `#` comments ignored; a line that is not an http(s) URL is reported by number. */
import { pageId } from './layout.ts';

export interface Site {
  url: string;
  id: string;
  /** 1-based line in the list. */
  line: number;
}

export interface BadLine {
  line: number;
  text: string;
  reason: string;
}

export function parseSiteList(text: string): { sites: Site[]; bad: BadLine[] } {
  const sites: Site[] = [];
  const bad: BadLine[] = [];
  const seen = new Map<string, number>();
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = i + 1;
    const t = raw.trim();
    if (t === '' || t.startsWith('#')) return;
    let url: URL;
    try {
      url = new URL(t);
    } catch {
      bad.push({ line, text: t, reason: 'not a URL' });
      return;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      bad.push({ line, text: t, reason: `not an http(s) URL (${url.protocol})` });
      return;
    }
    const first = seen.get(t);
    if (first !== undefined) {
      bad.push({ line, text: t, reason: `duplicate of line ${first}` });
      return;
    }
    seen.set(t, line);
    sites.push({ url: t, id: pageId(t), line });
  });
  return { sites, bad };
}
