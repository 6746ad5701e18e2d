import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lastActivityMs, quietFloorMs } from './activity.ts';
import { graphOf, res } from './testing.ts';

test('the last activity is the end of the last http(s) download or timer, events and data: URLs aside', () => {
  const g = graphOf('http://a.pcp.test/', [
    res('doc', 'http://a.pcp.test/', 'text/html', 100, { start: 0, end: 300 }),
    res('late', 'http://a.pcp.test/carousel.jpg', 'image/jpeg', 100, { start: 5800, end: 5900.4 }),
    res('data', 'data:image/png;base64,AAAA', 'image/png', 4, { start: 9000, end: 9000 }),
    { id: 't', kind: 'timer', timerId: '1', timerDelay: 1000, start: 4000, end: 4100 },
    { id: 'blur', kind: 'event', eventName: 'blur', eventTarget: 'Element', start: 59_800, end: 59_800 },
  ], []);
  assert.equal(lastActivityMs(g), 5900);
  assert.equal(lastActivityMs(graphOf('http://a.pcp.test/', [], [])), 0);
});

test('the quiet floor adds 2 s, or a tenth of a long activity', () => {
  assert.equal(quietFloorMs(0), 2000);
  assert.equal(quietFloorMs(5900), 7900);
  assert.equal(quietFloorMs(42_000), 46_200);
});
