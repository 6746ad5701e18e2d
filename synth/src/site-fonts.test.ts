/**
 * The page's fonts in real Chromium: a style sheet that loads three fonts, each downloading for a
 * second, gets all three requested at once (as the source's browser did), not one after another's
 * failure to decode (site.ts, `fontChar`).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ResourceNode } from '@pcp/graph-builder';
import { roundTrip } from './roundtrip.ts';
import { graphOf, res } from './testing.ts';

const CHROMIUM = existsSync('/usr/bin/chromium');
const PAGE = 'http://www.pcp.test/';
const FONTS = [1, 2, 3].map((i) => `http://fonts.pcp.test/${i}.woff`);
const SPAN_MS = 1000;

const page = () => graphOf(PAGE, [
  res('doc', PAGE, 'text/html', 500, { start: 0, end: 5 }),
  { id: 'p0', kind: 'parse_chunk', docUrl: PAGE, startLine: 1, startColumn: 16, endLine: 1, endColumn: 20, start: 6, end: 7 },
  res('css', 'http://www.pcp.test/a.css', 'text/css', 800, { start: 7, end: 12 }),
  { id: 'c', kind: 'css_eval', styleUrl: 'http://www.pcp.test/a.css', start: 12, end: 13 },
  ...FONTS.map((u, i) => res(`f${i}`, u, 'font/woff', 300, { start: 14, end: 14 + SPAN_MS })),
], [['doc', 'p0', 'resource-chunk'], ['p0', 'css', 1], ['css', 'c', 18], ...FONTS.map((_, i): [string, string, number] => ['c', `f${i}`, 2])]);

test('in Chromium every font of a sheet is requested at once, none waiting for another to fail', { skip: !CHROMIUM && 'no Chromium', timeout: 300_000 }, async () => {
  const work = mkdtempSync(join(tmpdir(), 'pcp-fonts-'));
  try {
    const file = join(work, 'g.json');
    writeFileSync(file, JSON.stringify(page()));
    const rt = await roundTrip(file, join(work, 'rt'));
    const fonts = rt.built.nodes.filter((n): n is ResourceNode => n.kind === 'resource' && FONTS.includes(n.url));
    assert.deepEqual(fonts.map((f) => f.url).sort(), FONTS, 'every font is requested');
    // Served a second each: one after another, each would start after the one before ended.
    const lastStart = Math.max(...fonts.map((f) => f.start));
    const firstEnd = Math.min(...fonts.map((f) => f.end));
    assert.ok(lastStart < firstEnd, `fonts one after another: starts ${fonts.map((f) => f.start.toFixed(0))}, ends ${fonts.map((f) => f.end.toFixed(0))}`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
