/**
 * Page strings from a graph (URLs, event names) are data: these put them into generated HTML and
 * JavaScript so that no value can close its context or run as code. Pure.
 */

/** Text safe inside a double-quoted HTML attribute or as element text. */
export function htmlAttr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/'/g, '&#39;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * A JavaScript string literal for `s`, safe inside an inline <script> (no `</script`, no `<!--`)
 * and in any JS context (U+2028/2029 escaped).
 */
export function jsString(s: string): string {
  return JSON.stringify(s)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** A CSS url() argument: a quoted string with quotes, backslashes, newlines and `<` escaped. */
export function cssUrl(s: string): string {
  return `url("${s.replace(/[\\"'<>\n\r\f]/g, (c) => `\\${c.charCodeAt(0).toString(16)} `)}")`;
}
