/** The threads handler on real Chromium 156 traces (../fixtures). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { threadOf } from '../trace-events.ts';
import { fixtureEvents, runFixture } from './test-support.ts';

test('the page\'s threads: the renderer main thread that parsed its documents, not the WebUI renderer\'s', () => {
  for (const name of ['example-site.trace.json.gz', 'ev-message', 'r22-frame-script']) {
    const events = fixtureEvents(name);
    const { threads } = runFixture(name, events);
    const parsers = new Set(events.filter((e) => e.name === 'ParseHTML' && /^http:/.test((e.args?.beginData as { url?: string }).url ?? '')).map(threadOf));
    assert.deepEqual([...threads.threads], [...parsers], name);
    const webui = events.find((e) => e.name === 'process_name' && (e.args as { name?: string }).name === 'WebUI Top Renderer');
    if (webui) assert.ok(![...threads.threads].some((t) => t.startsWith(`${webui.pid}:`)), `${name}: WebUI renderer excluded`);
  }
});
