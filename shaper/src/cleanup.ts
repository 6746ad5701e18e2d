/**
 * Open links are closed when the process exits, however it exits: normally ('exit' runs synchronous
 * code only, so each link has a synchronous close), or on SIGINT/SIGTERM/SIGHUP (close, then die of
 * the same signal unless the program has its own handler). SIGKILL runs nothing: the delay line dies
 * with its parent (PR_SET_PDEATHSIG) and the next openShapedLink reaps the namespaces.
 */
export interface SyncClosable {
  closeSync(): void;
}

const open = new Set<SyncClosable>();
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

function closeAll(): void {
  for (const l of [...open]) l.closeSync();
  open.clear();
}

function onSignal(sig: NodeJS.Signals): void {
  closeAll();
  uninstall();
  if (process.listenerCount(sig) === 0) process.kill(process.pid, sig);
}

function install(): void {
  process.on('exit', closeAll);
  for (const s of SIGNALS) process.on(s, onSignal);
}

function uninstall(): void {
  process.off('exit', closeAll);
  for (const s of SIGNALS) process.off(s, onSignal);
}

export function track(l: SyncClosable): void {
  if (open.size === 0) install();
  open.add(l);
}

export function untrack(l: SyncClosable): void {
  if (!open.delete(l)) return;
  if (open.size === 0) uninstall();
}
