/** Why a shaped link could not be opened or used, in one line the user can act on. */
export class ShaperError extends Error {
  override name = 'ShaperError';
}

/** Linux capability numbers the shaper needs (include/uapi/linux/capability.h). */
const CAP_NET_ADMIN = 12;
const CAP_SYS_ADMIN = 21;

/**
 * The capabilities missing from an effective set, given the `CapEff:` hex of /proc/self/status.
 * Network namespaces need CAP_SYS_ADMIN (mount, setns); devices, addresses and qdiscs CAP_NET_ADMIN.
 */
export function missingCapabilities(capEffHex: string): string[] {
  const eff = BigInt(`0x${capEffHex.trim() || '0'}`);
  const missing: string[] = [];
  if (!((eff >> BigInt(CAP_NET_ADMIN)) & 1n)) missing.push('CAP_NET_ADMIN');
  if (!((eff >> BigInt(CAP_SYS_ADMIN)) & 1n)) missing.push('CAP_SYS_ADMIN');
  return missing;
}

/** The failure of one system command (ip, tc, gcc...) as a ShaperError. */
export function commandError(argv: readonly string[], err: { code?: unknown; stderr?: unknown; message?: string }): ShaperError {
  const tool = argv[0] ?? '?';
  if (err.code === 'ENOENT') {
    const pkg: Record<string, string> = { ip: 'iproute2', tc: 'iproute2', gcc: 'build-essential', cc: 'build-essential' };
    return new ShaperError(`'${tool}' is not installed${pkg[tool] ? ` (Debian package ${pkg[tool]})` : ''}`);
  }
  const stderr = String(err.stderr ?? '').trim();
  const first = (stderr.split('\n').find((l) => l.trim()) ?? err.message ?? 'failed').trim();
  const what = argv.join(' ');
  if (/Operation not permitted|Permission denied/i.test(stderr)) {
    return new ShaperError(`not permitted: '${what}' (the shaper needs root: CAP_NET_ADMIN and CAP_SYS_ADMIN)`);
  }
  const qdisc = /Specified qdisc kind is unknown/i.test(stderr) ? argv[argv.indexOf('root') + 1] ?? argv.find((a) => ['tbf', 'netem'].includes(a)) : undefined;
  if (qdisc) return new ShaperError(`the kernel has no '${qdisc}' qdisc ('${what}')`);
  return new ShaperError(`'${what}' failed: ${first}`);
}
