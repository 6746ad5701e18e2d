/** Parse chunks: a chunk lasts the parser's work; the waits are the edges' (thesis §3.5.1). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildFromTrace } from '../build-trace.ts';
import { fixtureDir } from '../adapters/trace/handlers/test-support.ts';
import { legacyLogToActivities } from '../adapters/legacy-log/index.ts';
import { applyRules } from './index.ts';
import { SNIPPET_LINES } from '../../test/snippet.ts';

test('r04 (real Chromium): the chunk blocked on blocking.js lasts its parse work, not the wait; the wait is in the edges', () => {
  const { graph } = buildFromTrace(fixtureDir('r04-sync-script-blocks'));
  const node = (id: string) => graph.nodes.find((n) => n.id === id)!;
  const chunk = node('pchunk_0_0');
  const script = graph.nodes.find((n) => n.kind === 'script_eval' && n.scriptUrl.endsWith('/blocking.js'))!;
  const download = graph.nodes.find((n) => n.kind === 'resource' && n.url.endsWith('/blocking.js'))!;
  // The recorded first ParseHTML slice: 0.448 ms of parsing; the script ran > 150 ms later (served 150 ms late).
  assert.ok(script.start - chunk.start > 150);
  assert.ok(Math.abs(chunk.end - chunk.start - 0.448) < 0.01, `chunk lasts ${chunk.end - chunk.start} ms`);
  const has = (from: string, to: string) => graph.edges.some((e) => e.from === from && e.to === to);
  assert.ok(has(chunk.id, download.id), 'the chunk issues the script');
  assert.ok(has(download.id, script.id), 'the script waits for its download');
  assert.ok(has(chunk.id, script.id), 'and for the chunk');
  assert.ok(has(script.id, 'pchunk_0_1'), 'the next chunk waits for the script');
  assert.ok(node('pchunk_0_1').start >= script.end - 1e-6, 'the next chunk keeps its position after the script');
});

test('legacy logs: each token carries the parser work before it (the earlier tokens\' spans); a chunk lasts its tokens\' work', () => {
  const acts = legacyLogToActivities(SNIPPET_LINES, []);
  const out = applyRules(acts, []);
  const doc = acts.documents[0]!;
  // Snippet tokens last 1 ms each: the work clock counts 0, 1, 2, ... ms whatever the waits between them.
  assert.deepEqual(doc.tokens.map((t) => Math.round(t.work! * 1000) / 1000), doc.tokens.map((_, i) => i));
  const pc = out.nodes.find((n) => n.id === 'pchunk_0_0')!;
  assert.equal(pc.kind, 'parse_chunk');
  if (pc.kind !== 'parse_chunk') return;
  const last = doc.tokens.find((t) => t.line === pc.endLine && t.column === pc.endColumn)!;
  assert.equal(pc.start, doc.tokens[0]!.start);
  assert.ok(Math.abs(pc.end - pc.start - (last.work! + (last.end - last.start))) < 1e-9);
  assert.ok(pc.end < last.end, 'the waits between tokens are not parse work');
});
