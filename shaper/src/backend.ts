/**
 * Which backend carries the delay and loss: the kernel's netem over a veth pair where the kernel has
 * both, else the userspace delay line over two TUN devices. Detected once per process by trying both
 * in a scratch namespace; PCP_SHAPER_BACKEND=netem|delay-line forces one.
 */
import { ShaperError } from './errors.ts';
import { run } from './sys.ts';

export type Backend = 'netem' | 'delay-line';

let detected: Promise<Backend> | undefined;

export function chooseBackend(env: NodeJS.ProcessEnv = process.env): Promise<Backend> {
  const forced = env.PCP_SHAPER_BACKEND;
  if (forced !== undefined && forced !== '') {
    if (forced !== 'netem' && forced !== 'delay-line') {
      return Promise.reject(new ShaperError(`PCP_SHAPER_BACKEND must be 'netem' or 'delay-line', got '${forced}'`));
    }
    return Promise.resolve(forced);
  }
  detected ??= detectBackend();
  return detected;
}

async function detectBackend(): Promise<Backend> {
  const ns = `pcp-${process.pid}-probe`;
  await run(['ip', 'netns', 'add', ns]);
  try {
    await run(['ip', '-n', ns, 'link', 'add', 'a', 'type', 'veth', 'peer', 'name', 'b']);
    await run(['tc', '-n', ns, 'qdisc', 'add', 'dev', 'a', 'root', 'netem', 'delay', '1ms']);
    return 'netem';
  } catch {
    return 'delay-line';
  } finally {
    await run(['ip', 'netns', 'del', ns]).catch(() => undefined);
  }
}
