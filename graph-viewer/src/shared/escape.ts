/**
 * Escaping for the two text formats the viewer generates as strings (SVG/XML and Graphviz DOT).
 * URLs and names come from arbitrary pages; everything that reaches markup passes through here.
 */

export function xmlEscape(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!)
    // Control characters are not allowed in XML 1.0 at all.
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '\ufffd');
}

/** A DOT double-quoted string: only `"` and `\` are special; newlines become spaces. */
export function dotString(s: string): string {
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/[\r\n]+/g, ' ')}"`;
}

/** Shortens a URL for a label: last path segment (or host), at most `max` characters. */
export function shortUrl(url: string, max = 28): string {
  let s = url;
  const m = /^[a-z]+:\/\/([^/?#]*)([^?#]*)/i.exec(url);
  if (m) {
    const segs = (m[2] ?? '').split('/').filter(Boolean);
    s = segs.length > 0 ? segs[segs.length - 1]! : (m[1] ?? url);
  }
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

export function hostOf(url: string): string {
  const m = /^[a-z][a-z0-9+.-]*:\/\/([^/?#:]*)/i.exec(url);
  return m ? (m[1] ?? '').toLowerCase() : '';
}
