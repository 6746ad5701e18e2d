/**
 * What-if panel: two option sets (A and B) in the emulator's own words; "run A", "run B", or
 * "compare A | B" in one click. Every option `pcp emulate` takes is here (shared/whatifFields.ts), grouped
 * network, protocol, loss, multipath, advanced; link traces are files chosen here and sent by content; the
 * advanced group's "other options" box takes `KEY=VALUE` pairs as `--option` does. Results (load time,
 * DOMContentLoaded, drops, losses) appear in the panel and the simulated waterfalls beside the recorded one
 * in the what-if tab; a refused input is the emulator's one-line reason under the buttons.
 */
import { optionPairs } from '@pcp/emulator/config';
import { OPEN_GROUPS, WHATIF_FIELDS, WHATIF_GROUPS, splitOptionPairs, type TraceUpload, type WhatIfField, type WhatIfGroup, type WhatIfRequest } from '../shared/whatifFields.ts';
import { whatIf, type SimulationResult } from './api.ts';
import { el, fmtMs } from './dom.ts';

export interface WhatIfRun {
  name: string;
  options: Record<string, string | undefined>;
  result: SimulationResult;
}

type Set = 'A' | 'B';
type Input = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
/** The "other options" box's key in a set's inputs (not an emulator option). */
const PAIRS = 'option';

function fieldInput(set: Set, f: WhatIfField, k: number): Input {
  const name = `${set}-${f.key}`;
  if (f.input === 'file') return el('input', { type: 'file', name, title: f.hint });
  if (f.input === 'choice') {
    const s = el('select', { name }, ...(f.choices ?? []).map((c) => el('option', { value: c }, c === '' ? 'default' : c)));
    s.value = f.value?.[k] ?? '';
    return s;
  }
  const i = el('input', { name, size: 7, placeholder: 'default', title: f.hint });
  i.value = f.value?.[k] ?? '';
  return i;
}

export function whatIfPanel(graphId: string, recordedLoad: number | null, onResults: (runs: WhatIfRun[]) => void): HTMLElement {
  const inputs: Record<Set, Map<string, Input>> = { A: new Map(), B: new Map() };
  const groups = new Map<WhatIfGroup, HTMLDetailsElement>();
  const header = (): HTMLTableRowElement => el('tr', {}, el('th', {}, ''), el('th', {}, 'A'), el('th', {}, 'B'));
  for (const g of WHATIF_GROUPS) {
    const table = el('table', { class: 'whatif-form' }, header());
    const row = (label: string, hint: string | undefined, make: (set: Set, k: number) => Input, key: string): void => {
      const tr = el('tr', {}, el('td', { title: hint }, label));
      (['A', 'B'] as const).forEach((set, k) => {
        const input = make(set, k);
        inputs[set].set(key, input);
        tr.append(el('td', {}, input));
      });
      table.append(tr);
    };
    for (const f of WHATIF_FIELDS.filter((x) => x.group === g)) row(f.label, f.hint, (set, k) => fieldInput(set, f, k), f.key);
    if (g === 'advanced') row('other (KEY=VALUE …)', 'any emulator option by name, as pcp emulate --option KEY=VALUE; several separated by spaces', (set) => el('textarea', { name: `${set}-${PAIRS}`, rows: 2, placeholder: 'key=value' }), PAIRS);
    const details = el('details', { class: 'whatif-group', 'data-group': g, open: OPEN_GROUPS.includes(g) }, el('summary', {}, g), table);
    groups.set(g, details);
  }
  // A folded group says how many of its fields are set, so a choice is never hidden.
  const countSet = (): void => {
    for (const [g, details] of groups) {
      const keys = [...WHATIF_FIELDS.filter((f) => f.group === g).map((f) => f.key as string), ...(g === 'advanced' ? [PAIRS] : [])];
      const n = (['A', 'B'] as const).reduce((sum, set) => sum + keys.filter((k) => isSet(inputs[set].get(k))).length, 0);
      details.querySelector('summary')!.textContent = n > 0 ? `${g} (${n} set)` : g;
    }
  };
  const form = el('div', { class: 'whatif-groups' }, ...groups.values());
  form.addEventListener('input', countSet);
  form.addEventListener('change', countSet);
  countSet();

  const status = el('div', { class: 'whatif-status', role: 'status' });
  const results = el('div', { class: 'whatif-results' });
  const request = async (set: Set): Promise<WhatIfRequest> => {
    const options: Record<string, string> = {};
    const traces: Record<string, TraceUpload> = {};
    let pairs: string[] = [];
    for (const [k, input] of inputs[set]) {
      if (k === PAIRS) pairs = splitOptionPairs(input.value);
      else if (input instanceof HTMLInputElement && input.type === 'file') {
        const file = input.files?.[0];
        if (file) traces[k] = { name: file.name, text: await file.text() };
      } else if (input.value.trim() !== '') options[k] = input.value.trim();
    }
    return { graph: graphId, options, pairs, traces };
  };
  const run = async (sets: Set[]): Promise<void> => {
    status.textContent = 'simulating…';
    status.classList.remove('failed');
    results.replaceChildren();
    try {
      const runs: WhatIfRun[] = [];
      for (const s of sets) {
        const req = await request(s);
        const r = await whatIf(req);
        // The pairs over the fields, as the server applied them (it accepted them).
        runs.push({ name: s, options: optionPairs(req.pairs ?? [], req.options), result: r.result });
      }
      status.textContent = '';
      const t = el('table', { class: 'whatif-out' }, el('tr', {}, el('th', {}, ''), el('th', {}, 'load'), el('th', {}, 'DCL'), el('th', {}, 'drops'), el('th', {}, 'losses'), el('th', {}, '2nd path')));
      t.append(el('tr', {}, el('td', {}, 'recorded'), el('td', {}, fmtMs(recordedLoad)), el('td', {}, ''), el('td', {}, ''), el('td', {}, '')));
      for (const r of runs) {
        t.append(
          el(
            'tr',
            { 'data-run': r.name },
            el('td', {}, r.name),
            el('td', { class: 'load-time', 'data-ms': r.result.loadTime }, fmtMs(r.result.loadTime)),
            el('td', {}, fmtMs(r.result.domContentLoadedTime)),
            el('td', {}, String(r.result.drops)),
            el('td', { class: 'losses' }, String(r.result.losses)),
            el('td', { class: 'path2-share' }, r.result.multipath ? `${((100 * r.result.multipath.bytesPath2) / Math.max(1, r.result.bytesDelivered)).toFixed(0)}% of bytes` : ''),
          ),
        );
      }
      results.append(t);
      t.scrollIntoView({ block: 'nearest' });
      onResults(runs);
    } catch (e) {
      // One line, whatever failed: the server's reason, a file that could not be read, the network.
      status.textContent = `what-if failed: ${((e as Error).message ?? String(e)).split('\n', 1)[0]}`;
      status.classList.add('failed');
      status.scrollIntoView({ block: 'nearest' });
    }
  };
  const button = (label: string, sets: Set[], id: string): HTMLButtonElement => {
    const b = el('button', { type: 'button', id }, label);
    b.addEventListener('click', () => void run(sets));
    return b;
  };
  return el('section', { class: 'whatif' }, el('h3', {}, 'What if…'), form, el('div', { class: 'buttons' }, button('run A', ['A'], 'whatif-run-a'), button('run B', ['B'], 'whatif-run-b'), button('compare A | B', ['A', 'B'], 'whatif-compare')), status, results);
}

function isSet(input: Input | undefined): boolean {
  if (!input) return false;
  if (input instanceof HTMLInputElement && input.type === 'file') return (input.files?.length ?? 0) > 0;
  return input.value.trim() !== '';
}
