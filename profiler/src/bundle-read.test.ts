/** The bundle readers on files written to a temp directory: valid, absent, and corrupt in each way. */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import {
  BUNDLE_FILES, BundleFileError, readArchiveHar, readBundleMeta, readDevtoolsLog, readDocuments, readFramesFile, readListeners,
  type DevtoolsLogEntry, type DocumentSource, type FramesFile, type ListenerRecord,
} from './bundle.ts';

const root = mkdtempSync(join(tmpdir(), 'pcp-bundle-read-'));
after(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
/** A bundle directory holding these files (strings written as they are, anything else as JSON). */
function bundle(files: Record<string, unknown>): string {
  const dir = mkdtempSync(join(root, `b${n++}-`));
  for (const [name, v] of Object.entries(files)) writeFileSync(join(dir, name), typeof v === 'string' || Buffer.isBuffer(v) ? v : JSON.stringify(v));
  return dir;
}

const frames: FramesFile = {
  mainFrameId: 'F1',
  frames: [
    { id: 'F1', parentId: null, url: 'http://a.test/', outOfProcess: false, sessionId: '' },
    { id: 'F2', parentId: 'F1', url: 'https://c.test/w.html', outOfProcess: true, sessionId: 'S2' },
  ],
};
const docs: DocumentSource[] = [{ requestId: 'R1', url: 'http://a.test/', frameId: 'F1', mimeType: 'text/html', body: '<p>', base64Encoded: false }, { requestId: 'R2', url: 'http://a.test/x', frameId: 'F1', mimeType: 'text/html', error: 'No resource' }];
const listeners: ListenerRecord[] = [{ frameId: 'F1', target: 'window', type: 'load', useCapture: false, once: false, scriptId: '3', lineNumber: 4, columnNumber: 2 }];
const log: DevtoolsLogEntry[] = [{ method: 'Page.loadEventFired', params: { timestamp: 1 } }, { method: 'Network.requestWillBeSent', params: {}, sessionId: 'S2', targetType: 'iframe' }];
const meta = { format: 'pcp-bundle/1', url: 'http://a.test/', status: 'complete', browser: { product: 'Chrome/156.0' } };

test('a valid bundle reads back as written', () => {
  const dir = bundle({ [BUNDLE_FILES.frames]: frames, [BUNDLE_FILES.documents]: docs, [BUNDLE_FILES.listeners]: listeners, [BUNDLE_FILES.devtoolsLog]: log, [BUNDLE_FILES.meta]: meta });
  assert.deepEqual(readFramesFile(dir), frames);
  assert.deepEqual(readDocuments(dir), docs);
  assert.deepEqual(readListeners(dir), listeners);
  assert.deepEqual(readDevtoolsLog(dir), { name: BUNDLE_FILES.devtoolsLog, log });
  assert.equal(readBundleMeta(dir)?.browser?.product, 'Chrome/156.0');
});

test('absent files read as undefined; a gzipped log is found under its .gz name', () => {
  const dir = bundle({ 'devtools.log.json.gz': gzipSync(JSON.stringify(log)) });
  for (const read of [readFramesFile, readDocuments, readListeners, readBundleMeta, readArchiveHar]) assert.equal(read(dir), undefined);
  assert.deepEqual(readDevtoolsLog(dir), { name: 'devtools.log.json.gz', log });
  assert.equal(readDevtoolsLog(bundle({})), undefined);
});

test('a corrupt file is one line naming the file and what is wrong', () => {
  const cases: Array<[Record<string, unknown>, (dir: string) => unknown, RegExp]> = [
    [{ [BUNDLE_FILES.frames]: '{"mainFrameId": "F1", "fra' }, readFramesFile, /^frames\.json: not valid JSON/],
    [{ [BUNDLE_FILES.frames]: [] }, readFramesFile, /^frames\.json: expected \{mainFrameId, frames\}$/],
    [{ [BUNDLE_FILES.frames]: { mainFrameId: 'F1', frames: [{ id: 7, parentId: null, url: '' }] } }, readFramesFile, /^frames\.json: entry 0 is not a frame/],
    [{ [BUNDLE_FILES.documents]: { url: 'x' } }, readDocuments, /^documents\.json: expected a list, each a document/],
    [{ [BUNDLE_FILES.documents]: [docs[0], { url: 'x', requestId: 'R', frameId: 'F', body: 12 }] }, readDocuments, /^documents\.json: entry 1 is not a document/],
    [{ [BUNDLE_FILES.listeners]: [{ ...listeners[0], target: 'body' }] }, readListeners, /^listeners\.json: entry 0 is not a listener/],
    [{ [BUNDLE_FILES.devtoolsLog]: [{ method: 'Page.loadEventFired' }] }, readDevtoolsLog, /^devtools\.log\.json: entry 0 is not a protocol event/],
    [{ 'devtools.log.json.gz': Buffer.from([0x1f, 0x8b, 8, 0, 1, 2]) }, readDevtoolsLog, /^devtools\.log\.json\.gz: cannot read/],
    [{ [BUNDLE_FILES.meta]: { ...meta, format: 'other/2' } }, readBundleMeta, /^meta\.json: not a pcp-bundle\/1 meta file$/],
    [{ [BUNDLE_FILES.meta]: { ...meta, browser: {} } }, readBundleMeta, /^meta\.json: browser has no product$/],
    [{ [BUNDLE_FILES.archive]: { log: { pages: [] } } }, readArchiveHar, /^archive\.har: not a HAR file \(no log\.entries\)$/],
  ];
  for (const [files, read, message] of cases) {
    assert.throws(() => read(bundle(files)), (e: Error) => e instanceof BundleFileError && message.test(e.message) && !e.message.includes('\n'), String(message));
  }
});
