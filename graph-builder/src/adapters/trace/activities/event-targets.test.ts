/** Events' targets and dispatch-less callbacks, on real Chromium 156 traces (../fixtures). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { callbackEvent, EventTargets, windowLoadFrame, windowLoadTest } from './event-targets.ts';
import { handlerOf, scriptRunBefore } from './slice-tree.ts';
import type { Slice } from '../load.ts';
import { contextOf, path } from './test-support.ts';

test('callbacks: a postMessage delivery and a MessagePort message are messages; others window callbacks', () => {
  const message = contextOf('ev-message', 'none').slices.find((sl) => sl.kind === 'function' && sl.asyncTask === 'postMessage')!;
  assert.deepEqual(callbackEvent(message), { eventName: 'message', eventTarget: 'Window' });
  const port = contextOf('ev-messageport', 'none').slices.find((sl) => sl.postedFrom !== undefined)!;
  assert.deepEqual(callbackEvent(port), { eventName: 'message', eventTarget: 'MessagePort' });
  const plain = contextOf('example-site.trace.json.gz', 'none').slices.find((sl) => sl.kind === 'function' && sl.parent === undefined)!;
  assert.deepEqual(callbackEvent(plain), { eventName: 'callback', eventTarget: 'Window' });
});

test('example-site: of the load dispatches with page code, the window\'s is told by its timing', () => {
  const ctx = contextOf('example-site.trace.json.gz', 'none');
  const isWindowLoad = windowLoadTest(ctx.load);
  const loads = ctx.slices.filter((sl) => sl.eventType === 'load' && sl.kind === 'event' && handlerOf(ctx.slices, sl));
  assert.ok(loads.length >= 1);
  const windows = loads.filter((sl) => isWindowLoad(sl, sl.frame ?? handlerOf(ctx.slices, sl)!.frame ?? ctx.load.mainFrame));
  assert.equal(windows.length, 1);
});

test('ev-error: the missing image\'s error event targets that <img>, each resource claimed once', () => {
  const ctx = contextOf('ev-error', 'none');
  const targets = new EventTargets(ctx);
  const errors = ctx.slices.filter((sl) => sl.kind === 'event' && sl.eventType === 'error' && !sl.windowTarget);
  assert.ok(errors.length >= 1);
  const got = errors.map((sl) => targets.targetOf(sl, sl.frame ?? ctx.load.mainFrame, handlerOf(ctx.slices, sl)));
  const missing = ctx.resId.get(ctx.requests.find((r) => path(r.url).endsWith('/missing.png'))!);
  assert.deepEqual(got[0], { target: 'img', subjects: [missing] });
  const subjects = got.flatMap((g) => g.subjects);
  assert.equal(new Set(subjects).size, subjects.length);
  const windowError = ctx.slices.find((sl) => sl.windowTarget)!;
  assert.deepEqual(targets.targetOf(windowError, ctx.load.mainFrame, undefined), { target: 'Window', subjects: [] });
});

test("a load dispatched right after a script ran is that script's element's (the same task), not the download that finished last", () => {
  const sl = (index: number, kind: Slice['kind'], start: number, end: number, url?: string): Slice => ({ index, kind, name: kind, start, end, thread: 't', url });
  // a.js and b.js finished downloading; a.js ran (22 ms), then a load was dispatched; b.js runs later.
  const slices = [sl(0, 'script', 100, 122, 'http://x.test/a.js'), sl(1, 'event', 122.1, 123), sl(2, 'event', 130, 131), sl(3, 'script', 200, 210, 'http://x.test/b.js')];
  assert.equal(scriptRunBefore(slices, slices[1]!)?.url, 'http://x.test/a.js');
  assert.equal(scriptRunBefore(slices, slices[2]!), undefined, 'a dispatch 8 ms after the script is not its load');
});

test("an inline onload's line holds several tags: the load right after a script ran is that script's, not the tag's neighbour that finished later", () => {
  const page = 'http://x.test/';
  const sl = (index: number, kind: Slice['kind'], start: number, end: number, more: Partial<Slice> = {}): Slice => ({ index, kind, name: kind, start, end, thread: 't', ...more });
  // The JSONP script ran (100-111 ms) and its element's load was dispatched (an onload handler on line 66);
  // an image of the same line finished downloading after the script's download, before the dispatch.
  const slices = [sl(0, 'script', 100, 111, { url: 'http://api.x.test/jsonp?cb=f' }), sl(1, 'event', 111.02, 112, { eventType: 'load' }), sl(2, 'function', 111.05, 111.9, { url: page, line: 66 })];
  const req = (requestId: string, url: string, resourceType: string, finish: number) =>
    ({ requestId, url, frame: 'f', resourceType, method: 'GET', initiator: { type: 'parser', url: page, line: 66 }, send: 10, finish, chunks: [], encodedLength: 0, decodedLength: 0, failed: false, fromCache: false, status: 200, mimeType: '' });
  const requests = [req('1', 'http://api.x.test/jsonp?cb=f', 'Script', 90), req('2', 'http://x.test/pixel.gif', 'Image', 105)];
  const ctx = { slices, load: { slices, marks: [], frames: [] }, requests, resId: new Map(requests.map((r) => [r, `res_${r.requestId}`])), options: {} };
  const targets = new EventTargets(ctx as never);
  assert.deepEqual(targets.targetOf(slices[1]!, 'f', slices[2]), { target: 'script', subjects: ['res_1'] });
});

test('a script downloaded but not yet run is not the element a load is about; once it ran, its load is its own', () => {
  const sl = (index: number, kind: Slice['kind'], start: number, end: number, more: Partial<Slice> = {}): Slice => ({ index, kind, name: kind, start, end, thread: 't', ...more });
  // jsonp finished at 100 and runs at 110-120 (its load at 120.01); an image's load, dispatched at 105 with a
  // handler from a script, is the image's (finished at 95), not the script's that finished after it.
  const slices = [sl(0, 'event', 105, 106, { eventType: 'load' }), sl(1, 'function', 105.1, 105.9, { url: 'http://x.test/app.js', line: 3 }),
    sl(2, 'script', 110, 120, { url: 'https://api.x.test/jsonp?cb=f' }), sl(3, 'event', 120.01, 121, { eventType: 'load' }), sl(4, 'function', 120.1, 120.9, { url: 'http://x.test/app.js', line: 9 })];
  const req = (requestId: string, url: string, resourceType: string, finish: number) =>
    ({ requestId, url, frame: 'f', resourceType, method: 'GET', initiator: { type: 'script' }, send: 10, finish, chunks: [], encodedLength: 0, decodedLength: 0, failed: false, fromCache: false, status: 200, mimeType: '' });
  // The script was requested over http and ran as https (an upgrade): still its run.
  const requests = [req('1', 'http://api.x.test/jsonp?cb=f', 'Script', 100), req('2', 'http://x.test/i.gif', 'Image', 95)];
  const ctx = { slices, load: { slices, marks: [], frames: [] }, requests, resId: new Map(requests.map((r) => [r, `res_${r.requestId}`])), options: {} };
  const targets = new EventTargets(ctx as never);
  assert.deepEqual(targets.targetOf(slices[0]!, 'f', slices[1]), { target: 'img', subjects: ['res_2'] });
  assert.deepEqual(targets.targetOf(slices[3]!, 'f', slices[4]), { target: 'script', subjects: ['res_1'] });
});

test("a handler written in an inline script reports that script's line: another tag there does not take the load of the script that just ran", () => {
  const frame = 'http://ads.x.test/frame.html';
  const sl = (index: number, kind: Slice['kind'], start: number, end: number, more: Partial<Slice> = {}): Slice => ({ index, kind, name: kind, start, end, thread: 't', ...more });
  // bid.js ran (100-101) and a load was dispatched whose handler, a function of the inline script on line 40,
  // runs; display.js's parser tag is on line 40 too. As an attribute handler (`onload`) the line would decide.
  const make = (functionName: string | undefined) => {
    const slices = [sl(0, 'script', 60, 61, { url: 'http://cdn.x.test/display.js' }), sl(1, 'script', 100, 101, { url: 'http://bid.x.test/bid.js' }),
      sl(2, 'event', 101.01, 102, { eventType: 'load' }), sl(3, 'function', 101.05, 101.9, { url: frame, line: 40, functionName })];
    const req = (requestId: string, url: string, initiator: { type: string; url?: string; line?: number }, finish: number) =>
      ({ requestId, url, frame: 'f', resourceType: 'Script', method: 'GET', initiator, send: 10, finish, chunks: [], encodedLength: 0, decodedLength: 0, failed: false, fromCache: false, status: 200, mimeType: '' });
    const requests = [req('1', 'http://cdn.x.test/display.js', { type: 'parser', url: frame, line: 40 }, 50), req('2', 'http://bid.x.test/bid.js', { type: 'script' }, 99)];
    const ctx = { slices, load: { slices, marks: [], frames: [] }, requests, resId: new Map(requests.map((r) => [r, `res_${r.requestId}`])), options: {} };
    return new EventTargets(ctx as never).targetOf(slices[2]!, 'f', slices[3]).subjects;
  };
  assert.deepEqual(make(''), ['res_2']);
  assert.deepEqual(make('onload'), ['res_1']);
});

test('synth-microsoftonline: a script inserted again (served from the memory cache, no request) is the target of the load right after its run', () => {
  // watsonsupport.min.js and watson.min.js are each inserted five times; one request each, five runs, each
  // run followed in its task by its element's load. The repeats' loads took other downloads (the document
  // as an iframe's, the logo as an img's, jquery as a script's), then none (two parentless loads).
  const ctx = contextOf('synth-microsoftonline', 'select');
  const targets = new EventTargets(ctx);
  const loads = ctx.slices.filter((sl) => sl.kind === 'event' && sl.eventType === 'load' && !sl.windowTarget && !windowLoadTest(ctx.load)(sl, sl.frame ?? ctx.load.mainFrame));
  const got = loads.map((sl) => ({ sl, ran: scriptRunBefore(ctx.slices, sl), ...targets.targetOf(sl, sl.frame ?? ctx.load.mainFrame, handlerOf(ctx.slices, sl)) }));
  for (const name of ['watsonsupport.min.js', 'watson.min.js']) {
    const request = ctx.requests.filter((r) => path(r.url).endsWith(`/${name}`));
    assert.equal(request.length, 1, `${name} requested once`);
    const mine = got.filter((g) => path(g.ran?.url).endsWith(`/${name}`));
    assert.equal(mine.length, 5, `five loads right after a run of ${name}`);
    for (const g of mine) {
      assert.deepEqual(g.subjects, [ctx.resId.get(request[0]!)], `${name}'s element, not another download`);
      assert.equal(g.target, 'script');
    }
    // The first load after the download is the script's by its request; the repeats follow their runs.
    assert.equal(mine[0]!.after, undefined);
    for (const g of mine.slice(1)) assert.equal(g.after, g.ran);
  }
  assert.ok(got.every((g) => g.subjects.length > 0), 'every element load has its element');
});

test("frames of one site share a thread: an element load takes its own frame's download, not another frame's that finished later", () => {
  const sl = (index: number, kind: Slice['kind'], start: number, end: number, more: Partial<Slice> = {}): Slice => ({ index, kind, name: kind, start, end, thread: 't', ...more });
  // Two ad frames A and B (one renderer thread) load the same image; B's finished last (101), then A's
  // handler ran for a load (102), then B's (103). An about:blank frame inside A holds A's pixel; an iframe
  // element of A loaded C's document.
  const slices = [sl(0, 'event', 102, 102.5, { eventType: 'load' }), sl(1, 'function', 102.1, 102.4, { url: 'http://ad.test/a.js', line: 1, frame: 'A' }),
    sl(2, 'event', 103, 103.5, { eventType: 'load' }), sl(3, 'function', 103.1, 103.4, { url: 'http://ad.test/a.js', line: 1, frame: 'B' }),
    sl(4, 'event', 110, 110.5, { eventType: 'load' }), sl(5, 'function', 110.1, 110.4, { url: 'http://ad.test/a.js', line: 1, frame: 'A' }),
    sl(6, 'event', 120, 120.5, { eventType: 'load' }), sl(7, 'function', 120.1, 120.4, { url: 'http://ad.test/a.js', line: 1, frame: 'A' }),
    sl(8, 'event', 130, 130.5, { eventType: 'load' }), sl(9, 'function', 130.1, 130.4, { url: 'http://ad.test/a.js', line: 1, frame: 'D' })];
  const req = (requestId: string, url: string, frame: string, resourceType: string, finish: number) =>
    ({ requestId, url, frame, resourceType, method: 'GET', initiator: { type: 'script' }, send: 10, finish, chunks: [], encodedLength: 0, decodedLength: 0, failed: false, fromCache: false, status: 200, mimeType: '' });
  const requests = [req('1', 'http://ad.test/bg.jpg', 'A', 'Image', 100), req('2', 'http://ad.test/bg.jpg', 'B', 'Image', 101),
    req('3', 'http://px.test/p.gif', 'A1', 'Image', 108), req('4', 'http://c.test/', 'C', 'Document', 119), req('5', 'http://x.test/x.gif', 'B', 'Image', 125)];
  const frames = [{ id: 'M', parent: null, url: 'http://page.test/' }, { id: 'A', parent: 'M', url: 'http://ad.test/' }, { id: 'B', parent: 'M', url: 'http://ad.test/' },
    { id: 'A1', parent: 'A', url: 'about:blank' }, { id: 'C', parent: 'A', url: 'http://c.test/' }, { id: 'D', parent: 'M', url: 'http://d.test/' }];
  const ctx = { slices, load: { slices, marks: [], frames }, requests, resId: new Map(requests.map((r) => [r, `res_${r.requestId}`])), options: {} };
  const targets = new EventTargets(ctx as never);
  const subject = (i: number) => targets.targetOf(slices[i]!, slices[i + 1]!.frame!, slices[i + 1]).subjects;
  assert.deepEqual(subject(0), ['res_1'], "A's load: A's image, not B's that finished last");
  assert.deepEqual(subject(2), ['res_2']);
  assert.deepEqual(subject(4), ['res_3'], 'an about: frame inside A is A\'s creator\'s to handle');
  assert.deepEqual(subject(6), ['res_4'], "an iframe's document: its element is in the parent frame");
  assert.deepEqual(subject(8), ['res_5'], 'no download of its own frame: the one that finished last, as before');
});

test("a window load called from inside a script is its frame's, by the frame's load mark in that task, not the main frame's", () => {
  // www.wikia.com's kept load (synth/README.md, session 15), ms after the `gampad/ads` script began: the script writes an
  // about:blank frame's document and closes it, so the frame loads inside the script: readystatechange, DOMContentLoaded,
  // the window's load (37.75-41.16, its listener requests jload: no FunctionCall names a frame), the iframe element's load
  // in the parent, the frame's MarkLoad (41.24), pageshow.
  const sl = (index: number, start: number, end: number, more: Partial<Slice> = {}): Slice => ({ index, kind: 'event', name: 'EventDispatch', start, end, thread: 'r', parent: 0, ...more });
  const slices = [
    { index: 0, kind: 'script', name: 'EvaluateScript', start: 0, end: 162.18, thread: 'r', frame: 'ad' } as Slice,
    sl(1, 37.6, 37.63, { eventType: 'DOMContentLoaded' }),
    sl(2, 37.7, 37.74, { eventType: 'readystatechange' }),
    sl(3, 37.75, 41.16, { eventType: 'load' }),
    sl(4, 41.16, 41.23, { eventType: 'load' }),
    sl(5, 41.25, 41.28, { eventType: 'pageshow' }),
  ];
  const marks = [
    { frame: 'other-process', name: 'load' as const, time: 40, thread: 'q' },
    { frame: 'blank', name: 'domContentLoaded' as const, time: 37.63, thread: 'r' },
    { frame: 'blank', name: 'load' as const, time: 41.24, thread: 'r' },
  ];
  const load = { slices, marks, frames: [] } as never;
  assert.equal(windowLoadFrame(load, slices[3]!), 'blank', "the window's load: the about:blank frame's");
  assert.equal(windowLoadFrame(load, slices[4]!), undefined, "the iframe element's load in the parent: not a window's, no frame from the mark");
  assert.equal(windowLoadFrame(load, slices[1]!), undefined, 'not a load');
  // A main frame's own window load (a task of its own): its mark a little before the dispatch's start.
  const own = [sl(0, 5000, 5040, { eventType: 'load', parent: undefined }), sl(1, 5040.1, 5040.2, { eventType: 'pageshow', parent: undefined })];
  assert.equal(windowLoadFrame({ slices: own, marks: [{ frame: 'main', name: 'load', time: 4999, thread: 'r' }], frames: [] } as never, own[0]!), 'main');
  // No pageshow after it (a trace cut short): not told this way.
  const cut = [sl(0, 5000, 5040, { eventType: 'load', parent: undefined })];
  assert.equal(windowLoadFrame({ slices: cut, marks: [{ frame: 'main', name: 'load', time: 5039, thread: 'r' }], frames: [] } as never, cut[0]!), undefined);
});

test("an iframe element's load after a long window-load handler of its frame is not a window load", () => {
  // www.snapdeal.com's kept load (synth/README.md, session 15), ms: the iframeLogin frame's window load (2522.64-2577.11,
  // a 54 ms handler), the iframe element's load in the main frame (2577.19-2578.28, its onload handler), the frame's
  // MarkLoad (2578.29), pageshow.
  const sl = (index: number, start: number, end: number, more: Partial<Slice> = {}): Slice => ({ index, kind: 'event', name: 'EventDispatch', start, end, thread: 'r', ...more });
  const slices = [
    sl(0, 2522.64, 2577.11, { eventType: 'load' }),
    { index: 1, kind: 'function', name: 'FunctionCall', start: 2522.67, end: 2577.02, thread: 'r', parent: 0, frame: 'login' } as Slice,
    sl(2, 2577.19, 2578.28, { eventType: 'load' }),
    { index: 3, kind: 'function', name: 'FunctionCall', start: 2577.24, end: 2578.27, thread: 'r', parent: 2, frame: 'main' } as Slice,
    sl(4, 2578.3, 2578.31, { eventType: 'pageshow' }),
  ];
  const load = { slices, marks: [{ frame: 'login', name: 'load' as const, time: 2578.29, thread: 'r' }], frames: [] } as never;
  const isWindowLoad = windowLoadTest(load);
  assert.equal(isWindowLoad(slices[0]!, 'login'), true, "the frame's window load");
  assert.equal(isWindowLoad(slices[2]!, 'main'), false, "the iframe element's load, 54 ms after the window load began");
  assert.equal(windowLoadFrame(load, slices[0]!), 'login');
});
