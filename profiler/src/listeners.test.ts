import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultFrameContext, inProcessFrameRoots, type FrameContext } from './listeners.ts';

test('a frame\'s main world is the default context Runtime.executionContextCreated names; isolated worlds and workers are not', () => {
  assert.deepEqual(defaultFrameContext({ context: { id: 7, auxData: { isDefault: true, frameId: 'F1' } } }), { frameId: 'F1', contextId: 7 });
  assert.equal(defaultFrameContext({ context: { id: 8, auxData: { isDefault: false, frameId: 'F1' } } }), undefined);
  assert.equal(defaultFrameContext({ context: { id: 9, auxData: {} } }), undefined);
  assert.equal(defaultFrameContext({}), undefined);
});

test('frames that share a renderer are asked through their context; the main frame and child targets\' roots through their own session', () => {
  const contexts = new Map<string, FrameContext>([
    ['MAIN', { sessionId: 'S0', contextId: 1 }],
    ['SAME', { sessionId: 'S0', contextId: 2 }],
    ['OOPIF', { sessionId: 'S1', contextId: 3 }],
    ['NESTED', { sessionId: 'S1', contextId: 4 }],
  ]);
  const frames = [
    { id: 'MAIN', outOfProcess: false },
    { id: 'SAME', outOfProcess: false },
    { id: 'OOPIF', outOfProcess: true },
    { id: 'NESTED', outOfProcess: false },
    { id: 'GONE', outOfProcess: false },
  ];
  assert.deepEqual(inProcessFrameRoots(frames, 'MAIN', contexts), [
    { sessionId: 'S0', frameId: 'SAME', contextId: 2 },
    { sessionId: 'S1', frameId: 'NESTED', contextId: 4 },
  ]);
});
