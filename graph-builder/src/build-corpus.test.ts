/**
 * Every log of the legacy corpus builds into a graph that passes the v1 schema and its referential
 * checks (the compare script scores graphs but does not validate them; www.bild.de once failed on the
 * negative columns of document.write fragments).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readText } from './format/io.ts';
import { validateGraph } from './format/validate.ts';
import { buildFromLegacyLog } from './build.ts';
import { legacySites } from './legacy-corpus.ts';

test('all 64 legacy logs build into valid v1 graphs', () => {
  const failures: string[] = [];
  for (const site of legacySites()) {
    const { graph } = buildFromLegacyLog(readText(site.raw), { input: site.slug });
    const v = validateGraph(graph);
    if (!v.ok) failures.push(`${site.slug}: ${v.errors.slice(0, 2).join('; ')}`);
  }
  assert.deepEqual(failures, []);
});
