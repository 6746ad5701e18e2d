/** The timer hook's reports, and the hook itself run in a bare V8 context (node:vm) standing in for a frame. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import vm from 'node:vm';
import { parseTimerReport, TIMER_BINDING, TIMER_HOOK_SOURCE } from './timer-hook.ts';

test('reports: install (due = the page clock + delay), fire, done, clear; anything else is not a report', () => {
  assert.deepEqual(parseTimerReport('i 12 30 1700000000000'), { kind: 'install', id: '12', timeout: 30, due: 1700000000030 });
  assert.deepEqual(parseTimerReport('i 3 0.5 10.25'), { kind: 'install', id: '3', timeout: 0.5, due: 10.75 });
  assert.deepEqual(parseTimerReport('f 12'), { kind: 'fire', id: '12' });
  assert.deepEqual(parseTimerReport('c 12'), { kind: 'clear', id: '12' });
  assert.deepEqual(parseTimerReport('d 12'), { kind: 'done', id: '12' });
  for (const bad of ['', 'i 12', 'f', 'x 1', 'f 1 2', 'i -1 30 0', 'f abc']) assert.equal(parseTimerReport(bad), undefined, bad);
});

test('the hook: reports function timers, passes ids and arguments through, leaves strings and intervals alone, hides the binding', async () => {
  const reports: string[] = [];
  // Node's timers stand in for the frame's (they take no string: those are kept aside, as Blink would compile them).
  const strings: string[] = [];
  // An uncaught exception in a callback is reported by the browser and goes no further: kept here.
  const errors: string[] = [];
  const nativeSet = (h: unknown, delay: number, ...args: unknown[]): unknown => {
    if (typeof h === 'string') return (strings.push(h), 99);
    return setTimeout(() => { try { (h as (...a: unknown[]) => void)(...args); } catch (e) { errors.push((e as Error).message); } }, delay);
  };
  const ctx = vm.createContext({ [TIMER_BINDING]: (p: string) => reports.push(p), setTimeout: nativeSet, clearTimeout, setInterval, Date: { now: () => 5000 } });
  vm.runInContext(TIMER_HOOK_SOURCE, ctx);
  assert.equal(vm.runInContext(`typeof ${TIMER_BINDING}`, ctx), 'undefined', 'the page cannot see the binding');
  const got: unknown[] = [];
  ctx.got = got;
  const ids = vm.runInContext(`[
    setTimeout(function (a, b) { got.push([a, b]); }, 20, 'x', 'y'),
    setTimeout(function () { got.push('cleared'); }, 10),
    setTimeout('1 + 1', 5),
  ]`, ctx) as unknown[];
  ctx.__id = ids[1];
  vm.runInContext('clearTimeout(__id)', ctx);
  await new Promise((r) => setTimeout(r, 60));
  assert.equal(JSON.stringify(got), JSON.stringify([['x', 'y']]), 'the callback ran with its arguments; the cleared one did not');
  ctx.boom = () => { throw new Error('boom'); };
  const thrower = vm.runInContext('setTimeout(boom, 1)', ctx);
  await new Promise((r) => setTimeout(r, 30));
  assert.deepEqual(reports.slice(-2), [`f ${Number(thrower)}`, `d ${Number(thrower)}`], 'a callback that throws is still reported done');
  assert.deepEqual(errors, ['boom'], 'and its exception reaches the browser');
  assert.deepEqual({ strings, id: ids[2] }, { strings: ['1 + 1'], id: 99 }, 'a string callback goes to the browser as it is, untracked');
  assert.equal(vm.runInContext('setInterval', ctx), setInterval, 'setInterval is the browser\'s own');
  const id0 = String(Number(ids[0]));
  const id1 = String(Number(ids[1]));
  assert.deepEqual(reports.slice(0, 5), [`i ${id0} 20 5000`, `i ${id1} 10 5000`, `c ${id1}`, `f ${id0}`, `d ${id0}`]);
});
