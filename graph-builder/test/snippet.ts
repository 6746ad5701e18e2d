/**
 * A hand-made legacy log of a tiny page, shared by the handler and rule tests. Times are seconds on the
 * monotonic clock; the main document is requested at t0 = 100 s, so node times are (t - 100) * 1000 ms.
 *
 *   <html>                       token 0 (0xh)
 *   <script src=a.js></script>   tokens 1 (0xa) and 2 (0xb); a.js is requested at 100.12, after the
 *                                end tag was parsed (100.112), so its parse chunk ends at token 2
 *   <img src=c.png>              token 3 (0xd), c.png requested at 100.41
 *   </body>                      token 4
 * a.js runs 100.31-100.39 (code 0xe1, declared by 0xa) and requests b.png at 100.35 itself.
 * c.png is also hit in the memory cache by the same <img> (0xd): the same dependency, merged.
 * The main frame's load is reported at 100.9.
 */
const res = (id: number, url: string, sent: number, recv: number, len: number, from: string, mime: string): string =>
  JSON.stringify({
    Resource: { id, url, frame: '1', sentTime: sent, recieveTime: recv, len, from, mimeType: mime, contentLength: -1, httpStatus: 200, httpMethod: 'GET', connId: 0, connReused: 0, cached: 0 },
  });
const tok = (code: string, row: number, column: number, tagName: string, start: number, pos: number, isStartTag = 1): string =>
  JSON.stringify({
    ObjectHash: { code, comp: '(nil)', doc: 'http://t.test/', frame: '1', row, column, tagName, startTime: start, endTime: start + 0.001, urls: [], pos, isStartTag, isFragment: 0 },
  });

export const SNIPPET_LINES: string[] = [
  JSON.stringify({ page: 'http://t.test/' }),
  JSON.stringify({ DOMLoad: 160.0 }),
  JSON.stringify({ Frame: { code: '1', id: 10, parent: '0', loadTime: 100.9 } }),
  res(10, 'http://t.test/', 100.0, 100.1, 300, '(nil)', 'text/html'),
  JSON.stringify({ ReceivedChunk: { resourceId: 10, receivedTime: 100.05, len: 150 } }),
  JSON.stringify({ ReceivedChunk: { resourceId: 10, receivedTime: 100.1, len: 150 } }),
  res(11, 'http://t.test/a.js', 100.12, 100.3, 1000, '0xa', 'application/javascript'),
  res(12, 'http://t.test/b.png', 100.35, 100.5, 500, '0xe1', 'image/png'),
  res(13, 'http://t.test/c.png', 100.41, 100.6, 700, '0xd', 'image/png'),
  tok('0xh', 0, 1, 'html', 100.105, 0),
  tok('0xa', 1, 10, 'script', 100.11, 20),
  tok('0xb', 1, 30, 'script', 100.112, 40, 0),
  tok('0xd', 2, 5, 'img', 100.4, 160),
  tok('0xf', 3, 1, 'body', 100.42, 250, 0),
  JSON.stringify({ Cached: { id: 13, url: 'http://t.test/c.png', from: '0xd', mimeType: '', len: 0, httpMethod: 'GET', accessTime: 100.401, frame: '1' } }),
  JSON.stringify({
    Computation: { type: 'execScript', code: '0xe1', from: '0xa', docUrl: 'http://t.test/', frame: '1', startTime: 100.31, endTime: 100.39, urlRecalcStyle: 'http://t.test/a.js', urls: [] },
  }),
  JSON.stringify({ Complete: 'http://t.test/' }),
];

/**
 * The edges the rules must produce, derived by hand from the page above (from -> to : rule):
 *  - ids: download_0 page, download_1 a.js, download_2 b.png, download_3 c.png (network fetches by send
 *    time); parse chunks split after token 2 (a.js requested there; the script ran after it) and token 3
 *    (c.png): pchunk_0_0 = tokens 0-2, pchunk_0_1 = token 3, pchunk_0_2 = token 4; a.js's run is split at
 *    100.35 where it requested b.png: comp_0_0 [310, 350] ms, comp_0_1 [350, 390] ms.
 */
export const SNIPPET_EDGES: string[] = [
  'download_0 -> dchunk_0_0 : 5', // the page's document -> its first download chunk
  'dchunk_0_0 -> dchunk_0_1 : 9',
  'dchunk_0_1 -> dchunk_0_2 : 9',
  'dchunk_0_0 -> pchunk_0_0 : 3',
  'dchunk_0_1 -> pchunk_0_1 : 3',
  'dchunk_0_2 -> pchunk_0_2 : 3',
  'pchunk_0_0 -> pchunk_0_1 : 3',
  'pchunk_0_1 -> pchunk_0_2 : 3',
  'pchunk_0_0 -> download_1 : 1', // <script src=a.js> declared a.js
  'pchunk_0_0 -> comp_0_0 : 12', // the script ran after its chunk ...
  'download_1 -> comp_0_0 : 10', // ... once a.js had downloaded
  'comp_0_0 -> comp_0_1 : split',
  'comp_0_0 -> download_2 : 2', // b.png requested by the script, in its first part
  'comp_0_1 -> pchunk_0_1 : 4', // the sync script blocks the next chunk
  'pchunk_0_1 -> download_3 : 1', // <img src=c.png>
  'pchunk_0_2 -> marker_domContentLoaded : completion:domContentLoaded',
  'marker_domContentLoaded -> marker_load : completion:load',
  'download_1 -> marker_load : event:window.load', // every resource requested before load (900 ms)
  'download_2 -> marker_load : event:window.load',
  'download_3 -> marker_load : event:window.load',
];
