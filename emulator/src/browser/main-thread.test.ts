import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PageBuilder } from '@pcp/graph-builder/testing';
import { compileGraph } from '../page-model.ts';
import { MainThread } from './main-thread.ts';

test('ready: idle with work queued, exactly when next() would pick something', () => {
  const g = new PageBuilder().parse('p1', 5).parse('p2', 5).script('s', 3).timer('t', 1, 10).build();
  const m = compileGraph(g);
  const id = (x: string): number => m.ids.indexOf(x);
  const th = new MainThread(m);
  assert.equal(th.ready, false); // nothing queued
  assert.equal(th.next(), -1);
  th.push(id('p1'));
  th.push(id('s'));
  th.push(id('t'));
  assert.equal(th.ready, true);
  th.busy = true;
  assert.equal(th.ready, false); // running something: next() waits
  assert.equal(th.next(), -1);
  th.busy = false;
  // Timers and events first, then the frame's parsing before its evaluation.
  const order: string[] = [];
  while (th.ready) order.push(m.ids[th.next()]!);
  assert.deepEqual(order, ['t', 'p1', 's']);
  assert.equal(th.next(), -1);
});

test("order 'ready' (Blink's): one queue in the order computations became ready; a continuation still goes first", () => {
  const g = new PageBuilder().parse('p1', 5).parse('p2', 5).script('s', 3).timer('t', 1, 10).build();
  const m = compileGraph(g);
  const id = (x: string): number => m.ids.indexOf(x);
  const th = new MainThread(m, 'ready');
  th.push(id('p1'));
  th.push(id('s'));
  th.push(id('t'));
  th.push(id('p2'));
  const order: string[] = [];
  while (th.ready) order.push(m.ids[th.next()]!);
  assert.deepEqual(order, ['p1', 's', 't', 'p2'], 'the thesis order would be t, p1, p2, s');
  // A 'split' part continues its parent's task: it goes before what is queued.
  m.continuation[id('p2')] = 1;
  th.push(id('p1'));
  th.push(id('p2'));
  assert.equal(m.ids[th.next()], 'p2');
});
