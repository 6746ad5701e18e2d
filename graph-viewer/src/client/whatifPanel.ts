/**
 * What-if panel: two option sets (A and B) in the emulator's own words; "run A", "run B", or
 * "compare A | B" in one click. Results (load time, DOMContentLoaded, drops) appear in the panel and
 * the simulated waterfalls beside the recorded one in the what-if tab.
 */
import { MPTCP_COUPLINGS, MPTCP_SCHEDULERS, PRIORITY_SCHEMES, PROTOCOLS, SERVER_MODELS, type EmulatorOption } from '@pcp/emulator/config';
import { whatIf, type SimulationResult } from './api.ts';
import { el, fmtMs } from './dom.ts';

export interface WhatIfRun {
  name: string;
  options: Record<string, string>;
  result: SimulationResult;
}

/** A few of the emulator's options (EMULATOR_OPTIONS), with its own lists of choices ('' = its default). */
const FIELDS: { key: EmulatorOption; label: string; choices?: readonly string[]; value: [string, string] }[] = [
  { key: 'bandwidth', label: 'bandwidth', value: ['10mbit', '50mbit'] },
  { key: 'rtt', label: 'RTT', value: ['80ms', '20ms'] },
  { key: 'protocol', label: 'protocol', choices: PROTOCOLS, value: ['h1', 'h2'] },
  { key: 'connections', label: 'connections / host', value: ['6', ''] },
  { key: 'server', label: 'server model', choices: ['', ...SERVER_MODELS], value: ['', ''] },
  { key: 'priority', label: 'priority scheme', choices: PRIORITY_SCHEMES, value: ['none', 'criticalPath'] },
  // Lossy links, delayed ACKs and h2 sharding (emulator/README.md, "Lossy links").
  { key: 'loss', label: 'random loss', value: ['', ''] },
  { key: 'loss-model', label: 'loss model (gilbert:…)', value: ['', ''] },
  { key: 'latency-spikes', label: 'latency spikes (2s,300ms)', value: ['', ''] },
  { key: 'delayed-acks', label: 'delayed ACKs', choices: ['', 'true', 'false'], value: ['', ''] },
  { key: 'psh', label: 'PSH ACKs', choices: ['', 'true', 'false'], value: ['', ''] },
  { key: 'tlp', label: 'tail-loss probes', choices: ['', 'true', 'false'], value: ['', ''] },
  { key: 'shard-large', label: 'h2 shard above (bytes)', value: ['', ''] },
  { key: 'shard-connections', label: 'shard connections (k, each)', value: ['', ''] },
  // A second path makes every connection MPTCP (thesis chapter 6): "bandwidth,RTT[,loss]", e.g. 10mbit,400ms.
  { key: 'path2', label: 'second path (MPTCP)', value: ['', ''] },
  { key: 'mptcp-scheduler', label: 'MPTCP scheduler', choices: ['', ...MPTCP_SCHEDULERS], value: ['', ''] },
  { key: 'mptcp-cc', label: 'MPTCP coupling', choices: ['', ...MPTCP_COUPLINGS], value: ['', ''] },
];

export function whatIfPanel(graphId: string, recordedLoad: number | null, onResults: (runs: WhatIfRun[]) => void): HTMLElement {
  const inputs: Record<'A' | 'B', Map<string, HTMLInputElement | HTMLSelectElement>> = { A: new Map(), B: new Map() };
  const table = el('table', { class: 'whatif-form' }, el('tr', {}, el('th', {}, ''), el('th', {}, 'A'), el('th', {}, 'B')));
  for (const f of FIELDS) {
    const tr = el('tr', {}, el('td', {}, f.label));
    (['A', 'B'] as const).forEach((set, k) => {
      let input: HTMLInputElement | HTMLSelectElement;
      if (f.choices) {
        input = el('select', { name: `${set}-${f.key}` }, ...f.choices.map((c) => el('option', { value: c }, c === '' ? 'default' : c)));
      } else input = el('input', { name: `${set}-${f.key}`, size: 7, placeholder: 'default' });
      input.value = f.value[k]!;
      inputs[set].set(f.key, input);
      tr.append(el('td', {}, input));
    });
    table.append(tr);
  }
  const status = el('div', { class: 'whatif-status', role: 'status' });
  const results = el('div', { class: 'whatif-results' });
  const optionsOf = (set: 'A' | 'B'): Record<string, string> => {
    const o: Record<string, string> = {};
    for (const [k, input] of inputs[set]) if (input.value.trim() !== '') o[k] = input.value.trim();
    return o;
  };
  const run = async (sets: ('A' | 'B')[]): Promise<void> => {
    status.textContent = 'simulating…';
    results.replaceChildren();
    try {
      const runs: WhatIfRun[] = [];
      for (const s of sets) {
        const r = await whatIf(graphId, optionsOf(s));
        runs.push({ name: s, options: optionsOf(s), result: r.result });
      }
      status.textContent = '';
      const t = el('table', { class: 'whatif-out' }, el('tr', {}, el('th', {}, ''), el('th', {}, 'load'), el('th', {}, 'DCL'), el('th', {}, 'drops'), el('th', {}, '2nd path')));
      t.append(el('tr', {}, el('td', {}, 'recorded'), el('td', {}, fmtMs(recordedLoad)), el('td', {}, ''), el('td', {}, '')));
      for (const r of runs) {
        t.append(
          el(
            'tr',
            { 'data-run': r.name },
            el('td', {}, r.name),
            el('td', { class: 'load-time', 'data-ms': r.result.loadTime }, fmtMs(r.result.loadTime)),
            el('td', {}, fmtMs(r.result.domContentLoadedTime)),
            el('td', {}, String(r.result.drops)),
            el('td', { class: 'path2-share' }, r.result.multipath ? `${((100 * r.result.multipath.bytesPath2) / Math.max(1, r.result.bytesDelivered)).toFixed(0)}% of bytes` : ''),
          ),
        );
      }
      results.append(t);
      onResults(runs);
    } catch (e) {
      status.textContent = `what-if failed: ${(e as Error).message}`;
    }
  };
  const button = (label: string, sets: ('A' | 'B')[], id: string): HTMLButtonElement => {
    const b = el('button', { type: 'button', id }, label);
    b.addEventListener('click', () => void run(sets));
    return b;
  };
  return el('section', { class: 'whatif' }, el('h3', {}, 'What if…'), table, el('div', { class: 'buttons' }, button('run A', ['A'], 'whatif-run-a'), button('run B', ['B'], 'whatif-run-b'), button('compare A | B', ['A', 'B'], 'whatif-compare')), status, results);
}
