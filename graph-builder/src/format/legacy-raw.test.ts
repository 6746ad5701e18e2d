import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fetchOf, legacyRawEvidence, legacyRawLogOf } from './legacy-raw.ts';
import { legacySites } from '../legacy-corpus.ts';

const line = (kind: string, v: unknown): string => JSON.stringify({ [kind]: v });
const resource = (id: number, url: string, sentTime: number, from = '(nil)') =>
  line('Resource', { id, url, frame: '1', sentTime, recieveTime: sentTime + 0.5, len: 300, from, mimeType: 'text/html', httpStatus: 200, httpMethod: 'GET', cached: 0 });

test('a raw log gives each fetch its arrivals and each URL its elements, in ms from the first request', () => {
  const warnings: string[] = [];
  const ev = legacyRawEvidence([
    resource(7, 'http://a.test/', 100),
    line('ReceivedChunk', { resourceId: 7, receivedTime: 100.3, len: 200 }),
    line('ReceivedChunk', { resourceId: 7, receivedTime: 100.2, len: 100 }),
    resource(8, 'http://a.test/b.txt', 100.25, '0xe1'),
    line('Element', { code: '0xe1', comp: '0xc', doc: 'http://a.test/', frame: '1', name: 'IMG', startTime: 100.24, endTime: 100.24, urls: ['http://a.test/b.txt'] }),
    '{"Element": not json',
    line('ObjectHash', { code: '0x1', comp: '(nil)', doc: 'http://a.test/', frame: '1', row: 0, column: 1, tagName: 'html', startTime: 100.2, endTime: 100.2, urls: [], pos: 0, isStartTag: 1 }),
  ], warnings);
  const doc = ev.fetches.get('http://a.test/')![0]!;
  assert.equal(doc.sent, 0);
  assert.deepEqual(doc.arrivals.map((a) => [Math.round(a.at), a.bytes]), [[200, 100], [300, 200]], 'arrivals in time order');
  assert.equal(Math.round(ev.fetches.get('http://a.test/b.txt')![0]!.sent), 250);
  assert.deepEqual(ev.elements.get('http://a.test/b.txt')!.map((e) => [e.name, e.code, Math.round(e.at), e.urls]), [['img', '0xe1', 240, 1]]);
  assert.equal(warnings.length, 1, 'the bad line is a warning, the rest is kept');
  assert.match(warnings[0]!, /line 6: not valid JSON/);
});

test('fetchOf finds the fetch of a URL sent at a graph resource time, within a tolerance', () => {
  const ev = legacyRawEvidence([resource(1, 'http://a.test/', 10), resource(2, 'http://a.test/x', 10.1), resource(3, 'http://a.test/x', 10.5)]);
  assert.equal(fetchOf(ev, 'http://a.test/x', 500.4)?.sent, ev.fetches.get('http://a.test/x')![1]!.sent);
  assert.equal(fetchOf(ev, 'http://a.test/x', 300), undefined);
  assert.equal(fetchOf(ev, 'http://a.test/y', 0), undefined);
});

test('a reference graph of the corpus has its raw log beside it; other files have none', () => {
  const site = legacySites()[0]!;
  assert.equal(legacyRawLogOf(site.graph), site.raw);
  assert.equal(legacyRawLogOf('/nonexistent/graphs/x.json.gz'), undefined);
  assert.equal(legacyRawLogOf(site.raw), undefined, 'a log is not a graph');
});

const PAGE = 'http://www.pcp.test/';
const token = (o: Record<string, unknown>): string =>
  line('ObjectHash', { code: '0x1', comp: '(nil)', doc: PAGE, frame: '1', row: 9, column: 20, tagName: 'body', startTime: 1, endTime: 1, urls: [], pos: 300, isStartTag: 1, isFragment: 0, ...o });

test("each document's first <body> start tag that the network parser read, at the log's row and column", () => {
  const ev = legacyRawEvidence([
    '{"page": "http://www.pcp.test/"}',
    token({ tagName: 'head', row: 1 }),
    token({ comp: '0x7f00', row: 3 }), // written by a script
    token({ isFragment: 1, row: 4 }), // innerHTML
    token({ isStartTag: 0, row: 5 }), // an end tag
    token({}),
    token({ row: 40 }), // a second body start tag: the first one counts
    token({ doc: 'http://ads.pcp.test/frame.html#x', row: 0, column: 93 }),
    token({ doc: 'http://neg.pcp.test/', column: -4 }), // a negative column (document.write fragments of 2016 logs) is 0
    'not json "ObjectHash" "body"',
  ]);
  assert.deepEqual([...ev.bodyStarts], [
    [PAGE, { row: 9, column: 20 }],
    ['http://ads.pcp.test/frame.html#x', { row: 0, column: 93 }],
    ['http://neg.pcp.test/', { row: 9, column: 0 }],
  ]);
  assert.equal(legacyRawEvidence([]).bodyStarts.size, 0);
});
