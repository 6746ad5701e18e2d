/**
 * The live process tree, read from Linux's /proc: which processes descend from a pid, and which of them
 * still run. A dead child whose parent died is re-parented to pid 1, which on some machines never reaps
 * it: such a zombie counts as ended.
 */
import { readdirSync, readFileSync } from 'node:fs';

interface ProcStat {
  pid: number;
  ppid: number;
  state: string;
  comm: string;
}

function stat(pid: number): ProcStat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // comm is in parentheses and may hold spaces or parentheses itself: split after the last ')'.
    const close = text.lastIndexOf(')');
    const [state, ppid] = text.slice(close + 2).split(' ');
    return { pid, ppid: Number(ppid), state: state ?? '?', comm: text.slice(text.indexOf('(') + 1, close) };
  } catch {
    return undefined;
  }
}

function all(): ProcStat[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map((d) => stat(Number(d)))
    .filter((s): s is ProcStat => s !== undefined);
}

/** Every process below `pid` (children, grandchildren...), with its command name. */
export function descendants(pid: number): { pid: number; comm: string }[] {
  const byParent = new Map<number, ProcStat[]>();
  for (const s of all()) byParent.set(s.ppid, [...(byParent.get(s.ppid) ?? []), s]);
  const out: { pid: number; comm: string }[] = [];
  const stack = [pid];
  while (stack.length) {
    for (const c of byParent.get(stack.pop()!) ?? []) {
      out.push({ pid: c.pid, comm: c.comm });
      stack.push(c.pid);
    }
  }
  return out;
}

/**
 * The running processes whose command line holds `text` (a Chromium's `--user-data-dir=...`, which every one of
 * its processes carries): they are found even after their parent died and they were re-parented.
 */
export function processesNaming(text: string): { pid: number; comm: string }[] {
  const out: { pid: number; comm: string }[] = [];
  for (const s of all()) {
    if (s.pid === process.pid || !running(s.pid)) continue;
    try {
      if (readFileSync(`/proc/${s.pid}/cmdline`, 'utf8').split('\0').some((arg) => arg.includes(text))) out.push({ pid: s.pid, comm: s.comm });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** Whether `pid` still runs (not gone, not a zombie). */
export function running(pid: number): boolean {
  const s = stat(pid);
  return s !== undefined && s.state !== 'Z' && s.state !== 'X';
}

/** Polls until `check` holds or `timeoutMs` passes; returns whether it held. */
export async function waitFor(check: () => boolean, timeoutMs: number, everyMs = 100): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (check()) return true;
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
