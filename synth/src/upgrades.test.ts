import { test } from 'node:test';
import assert from 'node:assert/strict';
import { alignUpgrades, withHttpsTwins } from './upgrades.ts';
import { graphOf, res } from './testing.ts';

const PAGE = 'http://www.pcp.test/';

test('third-party http responses get an https twin; the page host and https URLs do not', () => {
  const responses = [
    { url: PAGE, body: 'doc', status: 200 },
    { url: 'http://www.pcp.test/a.js', body: 'own', status: 200 },
    { url: 'http://www.google-analytics.com/ga.js', body: 'ga', status: 200 },
    { url: 'http://cdn.pcp.test/x.png', body: 'x', status: 200 },
    { url: 'https://cdn.pcp.test/x.png', body: 'x served', status: 200 },
  ];
  const served = withHttpsTwins(responses, PAGE);
  assert.deepEqual(served.map((r) => r.url), [...responses.map((r) => r.url), 'https://www.google-analytics.com/ga.js']);
  assert.equal(served.at(-1)!.body, 'ga');
});

test("when the graph has an https response on the page's host, the page's https URL redirects to its http one", () => {
  const responses: { url: string; body: string; status: number; location?: string }[] = [
    { url: PAGE, body: 'doc', status: 200 },
    { url: 'http://www.pcp.test/a.js', body: 'own', status: 200 },
    { url: 'https://www.pcp.test/login.html', body: 'login', status: 200 },
  ];
  const served = withHttpsTwins(responses, PAGE);
  assert.deepEqual(served.map((r) => r.url), [...responses.map((r) => r.url), 'https://www.pcp.test/']);
  assert.deepEqual({ status: served.at(-1)!.status, location: served.at(-1)!.location }, { status: 302, location: PAGE });
});

test('an upgraded URL is named by the http URL of the source; others keep theirs', () => {
  const source = graphOf(PAGE, [
    res('doc', PAGE, 'text/html', 100),
    res('ga', 'http://www.google-analytics.com/ga.js', 'application/javascript', 10),
    res('both', 'https://cdn.pcp.test/b.js', 'application/javascript', 10),
    res('both2', 'http://cdn.pcp.test/b.js', 'application/javascript', 10),
  ], []);
  const built = graphOf(PAGE, [
    res('doc', PAGE, 'text/html', 100),
    res('ga', 'https://www.google-analytics.com/ga.js#f', 'application/javascript', 10),
    { id: 's', kind: 'script_eval', scriptUrl: 'https://www.google-analytics.com/ga.js', scriptKind: 'sync' },
    res('both', 'https://cdn.pcp.test/b.js', 'application/javascript', 10),
    res('new', 'https://new.pcp.test/n.js', 'application/javascript', 10),
  ], [], [{ id: 'main', url: PAGE, parent: null }, { id: 'f', url: 'https://www.google-analytics.com/ga.js', parent: 'main' }]);
  const aligned = alignUpgrades(source, built);
  const urlOf = (id: string): string => {
    const n = aligned.nodes.find((x) => x.id === id)!;
    return n.kind === 'resource' ? n.url : n.kind === 'script_eval' ? n.scriptUrl : '';
  };
  assert.equal(urlOf('ga'), 'http://www.google-analytics.com/ga.js');
  assert.equal(urlOf('s'), 'http://www.google-analytics.com/ga.js');
  assert.equal(urlOf('both'), 'https://cdn.pcp.test/b.js');
  assert.equal(urlOf('new'), 'https://new.pcp.test/n.js');
  assert.equal(aligned.frames[1]!.url, 'http://www.google-analytics.com/ga.js');
  assert.equal(built.nodes.find((n) => n.id === 'ga')!.kind === 'resource' && (built.nodes.find((n) => n.id === 'ga') as { url: string }).url, 'https://www.google-analytics.com/ga.js#f');
});

test('a URL the source requested under both schemes is renamed request by request, in time order, with its frame\'s evaluations (www.ndtv.com\'s analytics.js)', () => {
  const GA = 'www.google-analytics.com/analytics.js';
  const source = graphOf(PAGE, [
    res('doc', PAGE, 'text/html', 100),
    res('page_ga', `http://${GA}`, 'application/javascript', 10, { start: 40 }),
    res('ad_ga', `https://${GA}`, 'application/javascript', 10, { frame: 'ad', start: 80 }),
  ], []);
  const built = graphOf(PAGE, [
    res('doc', PAGE, 'text/html', 100),
    res('page_ga', `https://${GA}`, 'application/javascript', 10, { start: 20 }),
    { id: 'page_s', kind: 'script_eval', scriptUrl: `https://${GA}`, scriptKind: 'async', start: 25 },
    res('ad_ga', `https://${GA}`, 'application/javascript', 10, { frame: 'f9', start: 70 }),
    { id: 'ad_s', kind: 'script_eval', frame: 'f9', scriptUrl: `https://${GA}`, scriptKind: 'async', start: 75 },
  ], []);
  const aligned = alignUpgrades(source, built);
  const urlOf = (id: string): string => {
    const n = aligned.nodes.find((x) => x.id === id)!;
    return n.kind === 'resource' ? n.url : n.kind === 'script_eval' ? n.scriptUrl : '';
  };
  assert.deepEqual(['page_ga', 'page_s', 'ad_ga', 'ad_s'].map(urlOf), [`http://${GA}`, `http://${GA}`, `https://${GA}`, `https://${GA}`]);
});

test('a URL the source requested under both schemes keeps its https requests when the built graph has no more of them than the source (en.nametests.com\'s xd_arbiter)', () => {
  const XD = 'staticxx.facebook.com/connect/xd_arbiter/r/P.js';
  const source = graphOf(PAGE, [
    res('doc', PAGE, 'text/html', 100),
    res('a', `http://${XD}`, 'text/html', 10, { frame: 'a', start: 40 }),
    res('b', `https://${XD}`, 'text/html', 10, { frame: 'b', start: 40 }),
    res('c', `http://${XD}`, 'text/html', 10, { frame: 'c', start: 60 }),
  ], []);
  const built = graphOf(PAGE, [
    res('doc', PAGE, 'text/html', 100),
    res('a', `http://${XD}`, 'text/html', 10, { frame: 'x', start: 20 }),
    res('b', `https://${XD}`, 'text/html', 10, { frame: 'y', start: 30 }),
    res('c', `http://${XD}`, 'text/html', 10, { frame: 'z', start: 35 }),
  ], []);
  const aligned = alignUpgrades(source, built);
  assert.deepEqual(aligned.nodes.filter((n) => n.kind === 'resource').map((n) => (n as { url: string }).url).slice(1), [`http://${XD}`, `https://${XD}`, `http://${XD}`]);
});
