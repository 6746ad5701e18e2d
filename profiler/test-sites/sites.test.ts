/**
 * The ground-truth files themselves: every expected.json is well formed and points at real lines
 * and files of its page, so a wrong line number or a typo in a URL fails here, not as a silent
 * fidelity loss.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { listSuite, SITES_DIR } from '../fidelity/suite.ts';
import type { ActivityRef } from '../fidelity/expected.ts';

const KINDS = new Set(['parse_chunk', 'download_chunk', 'resource', 'script_eval', 'css_eval', 'timer', 'event', 'marker']);

/** A URL of the suite as a file path, when it is one of the site's own files (origin a/b/c share the root). */
function localFile(page: string, url: string): string | undefined {
  const u = new URL(url.replace(/\{\{origin:[a-z]\}\}/g, 'http://x.test'), `http://x.test/${page}/index.html`);
  if (u.pathname.startsWith('/_pcp/')) return undefined;
  return join(SITES_DIR, decodeURIComponent(u.pathname));
}

test('every page has well-formed expectations that point at real lines and files', () => {
  const pages = listSuite();
  assert.ok(pages.length >= 30, `suite has ${pages.length} pages`);
  const rules = new Set<number>();
  for (const p of pages) {
    const e = p.expected;
    assert.ok(existsSync(join(SITES_DIR, p.path)), `${p.name}: page file`);
    assert.ok(e.description && Array.isArray(e.rules) && Array.isArray(e.events) && Array.isArray(e.resources) && Array.isArray(e.edges), `${p.name}: shape`);
    for (const r of e.rules) rules.add(r);
    const refs: ActivityRef[] = [...e.resources.map((r) => r.parent), ...e.edges.flatMap((x) => [x.from, x.to])];
    for (const ref of refs) {
      assert.ok(KINDS.has(ref.kind), `${p.name}: kind ${ref.kind}`);
      if (ref.kind === 'parse_chunk' && ref.line !== 'last') {
        const file = localFile(p.name, ref.docUrl)!;
        const lines = readFileSync(file, 'utf8').split('\n');
        const line = lines[ref.line - 1];
        assert.ok(line !== undefined && /<\/?[a-z]/i.test(line), `${p.name}: ${ref.docUrl}:${ref.line} is not a tag line: ${line}`);
      }
      if (ref.kind === 'event' && ref.subject) {
        assert.ok(e.resources.some((r) => r.url === ref.subject), `${p.name}: event subject ${ref.subject} is a listed resource`);
      }
      if (ref.kind === 'script_eval' && ref.scriptKind !== 'inline') {
        const f = localFile(p.name, ref.url);
        assert.ok(!f || existsSync(f), `${p.name}: script ${ref.url}`);
      }
    }
    for (const r of e.resources) {
      const f = localFile(p.name, r.url);
      if (f && (r.status ?? 200) === 200) assert.ok(existsSync(f), `${p.name}: resource file ${r.url}`);
      if (f && r.status === 404) assert.ok(!existsSync(f), `${p.name}: ${r.url} must be missing`);
    }
  }
  // Table 3.1: every rule 1-25 has at least one ground-truth page.
  const missing = Array.from({ length: 25 }, (_, i) => i + 1).filter((r) => !rules.has(r));
  assert.deepEqual(missing, [], 'rules without a page');
  // Appendix A: every event family has a page.
  const events = new Set(pages.flatMap((p) => p.expected.events));
  for (const ev of ['document.readystatechange', 'document.DOMContentLoaded', 'window.DOMContentLoaded', 'window.load', 'img.load', 'script.load', 'link.load', 'iframe.load', 'xmlhttprequest.readystatechange', 'xmlhttprequest.load', 'window.message', 'messageport.message', 'img.error', 'window.error']) {
    assert.ok(events.has(ev), `no page for ${ev}`);
  }
});
