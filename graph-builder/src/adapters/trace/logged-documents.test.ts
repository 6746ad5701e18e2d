/**
 * A frame's document the trace lacks, taken from the DevTools log. On a real Chromium bundle
 * (fixtures/r22-frame-script: a page with an iframe): its frame document's own trace events removed, as
 * when the frame's renderer lost its first events, the graph still has the document, from the log, with
 * the same parent and frame, and says so (the fixture's log keeps only the requests, so the document's
 * times there are its request's).
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import { loggedDocuments } from './logged-documents.ts';
import { requestFromLog } from './handlers/requests.ts';
import { buildFromTrace } from '../../build-trace.ts';
import type { Graph, ResourceNode } from '../../format/types.ts';

const FIXTURE = fileURLToPath(new URL('./fixtures/r22-frame-script', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'pcp-logged-docs-'));
after(() => rmSync(work, { recursive: true, force: true }));

const log = JSON.parse(readFileSync(join(FIXTURE, 'devtools.log.json'), 'utf8')) as unknown;

/** A frame's navigation as the protocol reports it: redirected once, then 200 with two chunks (s, trace clock). */
const HAND: unknown[] = [
  { method: 'Network.requestWillBeSent', params: { requestId: 'L1', frameId: 'F2', type: 'Document', timestamp: 10.0, request: { url: 'https://b.test/old', method: 'GET' } } },
  { method: 'Network.requestWillBeSent', params: { requestId: 'S1', frameId: 'F2', type: 'Script', timestamp: 10.001, request: { url: 'https://b.test/x.js' } } },
  { method: 'Network.requestWillBeSent', params: { requestId: 'L1', frameId: 'F2', type: 'Document', timestamp: 10.010, request: { url: 'https://b.test/frame.html', method: 'GET' } } },
  { method: 'Network.responseReceived', params: { requestId: 'L1', timestamp: 10.050, response: { status: 200, mimeType: 'text/html', timing: { requestTime: 10.012, sendStart: 3, receiveHeadersEnd: 30, connectStart: 0, connectEnd: 2 } } } },
  { method: 'Network.dataReceived', params: { requestId: 'L1', timestamp: 10.060, dataLength: 1000, encodedDataLength: 0 } },
  { method: 'Network.loadingFinished', params: { requestId: 'L1', timestamp: 10.055, encodedDataLength: 1200 } },
  { method: 'Network.dataReceived', params: { requestId: 'L1', timestamp: 10.070, dataLength: 500, encodedDataLength: 0 } },
  { method: 'Network.responseReceived', params: { requestId: 'nobody', timestamp: 11, response: { status: 500 } } },
];

test('loggedDocuments: the log\'s document requests on the trace clock (µs): last url, response, chunks, end', () => {
  assert.deepEqual(loggedDocuments(HAND), [{
    requestId: 'L1', frame: 'F2', url: 'https://b.test/frame.html', method: 'GET', sent: 10.0e6, response: 10.05e6,
    chunks: [{ ts: 10.06e6, bytes: 0 }, { ts: 10.07e6, bytes: 0 }], finish: 10.055e6, status: 200, mimeType: 'text/html',
    timing: { requestTime: 10.012, sendStart: 3, receiveHeadersEnd: 30, connectStart: 0, connectEnd: 2 },
    encodedLength: 1200, decodedLength: 1500, failed: false,
  }]);
  assert.deepEqual(loggedDocuments('not a log'), []);
  assert.deepEqual(loggedDocuments(log).map((d) => d.url.replace(/:\d+/, '')), ['http://a.pcp.test/r22-frame-script/index.html', 'http://a.pcp.test/r22-frame-script/frame.html']);
});

test('requestFromLog: sent at its response (the commit is unknown), ends with its last chunk, page ms', () => {
  // Page time 0 at trace 10.000 s: response 50 ms; chunks 60, 70; the end is the later of the network's end
  // (55) and the last chunk (70); the network's times: sent 12 + 3 = 15, headers 12 + 30 = 42, connect 2 (all of it handshakes), end 55.
  const r = requestFromLog(loggedDocuments(HAND)[0]!, (ts) => (ts - 10e6) / 1000);
  assert.deepEqual({ ...r, network: { ...r.network!, sent: +r.network!.sent.toFixed(6), headers: +r.network!.headers.toFixed(6) } }, {
    requestId: 'L1', url: 'https://b.test/frame.html', frame: 'F2', resourceType: 'Document', method: 'GET',
    send: 50, response: 50, finish: 70, chunks: [{ time: 60, bytes: 0 }, { time: 70, bytes: 0 }],
    encodedLength: 1200, decodedLength: 1500, failed: false, fromCache: false, status: 200, mimeType: 'text/html',
    network: { sent: 15, headers: 42, connect: 2, handshake: 2, finish: 55 },
  });
});

const resourceOf = (g: Graph, suffix: string) => g.nodes.find((n) => n.kind === 'resource' && (n as { url: string }).url.endsWith(suffix)) as { id: string; url: string } | undefined;
const parentOf = (g: Graph, id: string) => g.edges.filter((e) => e.to === id).map((e) => g.nodes.find((n) => n.id === e.from)?.kind);

test('a frame document missing from the trace comes from the DevTools log: same place in the graph, a warning', () => {
  const whole = buildFromTrace(FIXTURE).graph;
  const frameDoc = loggedDocuments(log)[1]!;
  const bundle = join(work, 'lost');
  cpSync(FIXTURE, bundle, { recursive: true });
  const trace = JSON.parse(gunzipSync(readFileSync(join(FIXTURE, 'trace.json.gz'))).toString('utf8')) as { traceEvents: { name: string; args?: { data?: { requestId?: string } } }[] };
  const lost = ['ResourceSendRequest', 'ResourceReceiveResponse'];
  const before = trace.traceEvents.length;
  trace.traceEvents = trace.traceEvents.filter((e) => !(lost.includes(e.name) && e.args?.data?.requestId === frameDoc.requestId));
  assert.equal(trace.traceEvents.length, before - 2);
  writeFileSync(join(bundle, 'trace.json.gz'), gzipSync(JSON.stringify(trace)));

  const { graph, warnings } = buildFromTrace(bundle);
  const doc = resourceOf(graph, '/frame.html');
  assert.ok(doc, 'the frame document is in the graph');
  assert.deepEqual(parentOf(graph, doc.id), parentOf(whole, resourceOf(whole, '/frame.html')!.id));
  assert.deepEqual(graph.nodes.filter((n) => n.kind === 'resource').map((n) => (n as { url: string }).url).sort(),
    whole.nodes.filter((n) => n.kind === 'resource').map((n) => (n as { url: string }).url).sort());
  assert.ok(warnings.some((w) => w.includes('frame.html is not in the trace') && w.includes('DevTools log')), warnings.join('\n'));
  assert.ok(!buildFromTrace(FIXTURE).warnings.some((w) => w.includes('is not in the trace')));
});

test("a frame's document records when the browser began its navigation: on the page clock, after the parse chunk that created the frame, before the frame's commit", () => {
  const { graph } = buildFromTrace(FIXTURE);
  const resource = (suffix: string) => graph.nodes.find((n): n is ResourceNode => n.kind === 'resource' && n.url.endsWith(suffix));
  const doc = resource('/frame.html')!;
  const creator = graph.nodes.find((n) => graph.edges.some((e) => e.from === n.id && e.to === doc.id))!;
  assert.equal(creator.kind, 'parse_chunk');
  assert.equal(typeof doc.navigationRequest, 'number');
  assert.ok(doc.navigationRequest! >= creator.end && doc.navigationRequest! < doc.start, `${creator.end} <= ${doc.navigationRequest} < ${doc.start}`);
  assert.equal(resource('/index.html')?.navigationRequest, undefined, "the main document's is graph.navigation.documentRequest");
});
