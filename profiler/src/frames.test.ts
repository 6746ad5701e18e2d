/** joinFrames on hand-made frame trees and logs, no Chromium. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { iframeSessions, joinFrames, type SessionTree } from './frames.ts';
import type { DevtoolsLogEntry } from './bundle.ts';

const page: SessionTree = {
  sessionId: '',
  outOfProcess: false,
  tree: {
    frame: { id: 'M', url: 'http://a.test/', securityOrigin: 'http://a.test', mimeType: 'text/html', loaderId: 'L1' },
    childFrames: [
      { frame: { id: 'X', parentId: 'M', url: 'https://c.test/w.html' } }, // the parent renderer's stale view of a cross-site iframe
      { frame: { id: 'S', parentId: 'M', url: 'http://a.test/same.html', urlFragment: '#top', name: 'same' } },
    ],
  },
};
const child: SessionTree = { sessionId: 'S-X', outOfProcess: true, tree: { frame: { id: 'X', url: 'https://c.test/w.html', securityOrigin: 'https://c.test' } } };

test('the page tree and an out-of-process iframe\'s own tree join by frame id; the child\'s view wins', () => {
  const f = joinFrames([page, child], [], 'M');
  assert.equal(f.mainFrameId, 'M');
  const byId = new Map(f.frames.map((x) => [x.id, x]));
  assert.deepEqual([...byId.keys()], ['M', 'X', 'S']);
  assert.equal(byId.get('M')!.parentId, null);
  assert.deepEqual(byId.get('X'), { id: 'X', parentId: 'M', url: 'https://c.test/w.html', name: undefined, securityOrigin: 'https://c.test', mimeType: undefined, loaderId: undefined, outOfProcess: true, sessionId: 'S-X' });
  assert.equal(byId.get('S')!.url, 'http://a.test/same.html#top', 'the fragment is kept');
  assert.equal(byId.get('S')!.outOfProcess, false);
});

test('frames that came and went are known from the log', () => {
  const log: DevtoolsLogEntry[] = [
    { method: 'Page.frameAttached', params: { frameId: 'GONE', parentFrameId: 'M' } },
    { method: 'Page.frameNavigated', params: { frame: { id: 'GONE', url: 'http://a.test/gone.html' } } },
    { method: 'Page.frameNavigated', params: { frame: { id: 'OOP', parentId: 'M', url: 'https://b.test/' } }, sessionId: 'S-2', targetType: 'iframe' },
    { method: 'Page.frameNavigated', params: { frame: { id: 'M', url: 'http://a.test/other' } } },
  ];
  const f = joinFrames([page], log, '');
  assert.equal(f.mainFrameId, null);
  const byId = new Map(f.frames.map((x) => [x.id, x]));
  assert.deepEqual(byId.get('GONE'), { id: 'GONE', parentId: 'M', url: 'http://a.test/gone.html', outOfProcess: false, sessionId: '' });
  assert.equal(byId.get('OOP')!.outOfProcess, true);
  assert.equal(byId.get('OOP')!.sessionId, 'S-2');
  assert.equal(byId.get('M')!.url, 'http://a.test/', 'a known frame keeps its tree URL');
});

test('iframeSessions keeps only iframe targets', () => {
  const sessions = new Map([['a', { targetType: 'iframe' }], ['b', { targetType: 'worker' }]]);
  assert.deepEqual(iframeSessions(sessions).map(([k]) => k), ['a']);
});
