/**
 * The replay certificate, made at run time with the `openssl` CLI (no key material is stored): a
 * throwaway CA and a leaf it signs that names every recorded host (DNS names and IP literals).
 * Chromium trusts it through `--ignore-certificate-errors-spki-list=<spkiHash>`, the base64 SHA-256
 * of the leaf's SubjectPublicKeyInfo, so no other certificate error is ignored.
 */
import { execFileSync } from 'node:child_process';
import { createHash, createPublicKey } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface ReplayCert {
  key: Buffer;
  /** Leaf then CA, PEM: what the TLS server sends. */
  cert: Buffer;
  ca: Buffer;
  /** base64(SHA-256(leaf SPKI DER)), for Chromium's --ignore-certificate-errors-spki-list. */
  spkiHash: string;
}

export function spkiHashOf(keyOrCertPem: Buffer | string): string {
  const der = createPublicKey(keyOrCertPem).export({ type: 'spki', format: 'der' });
  return createHash('sha256').update(der).digest('base64');
}

/** subjectAltName entries for the hosts: IP literals as IP:, names as DNS:. Pure. */
export function subjectAltNames(hosts: readonly string[]): string {
  const names = new Set<string>(['DNS:localhost', 'IP:127.0.0.1']);
  for (const h of hosts) {
    const bare = h.replace(/^\[|\]$/g, '');
    names.add(/^[\d.]+$/.test(bare) || bare.includes(':') ? `IP:${bare}` : `DNS:${bare}`);
  }
  return [...names].join(',');
}

export function makeReplayCert(hosts: readonly string[]): ReplayCert {
  const dir = mkdtempSync(join(tmpdir(), 'pcp-replay-cert-'));
  const run = (args: string[]): void => {
    execFileSync('openssl', args, { stdio: ['ignore', 'ignore', 'pipe'], cwd: dir });
  };
  try {
    const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
    run(['req', '-x509', ...ec, '-days', '7', '-subj', '/CN=PCP replay CA', '-addext', 'basicConstraints=critical,CA:TRUE',
      '-addext', 'keyUsage=critical,keyCertSign,cRLSign', '-keyout', 'ca.key', '-out', 'ca.pem']);
    run(['req', ...ec, '-subj', '/CN=PCP replay', '-keyout', 'leaf.key', '-out', 'leaf.csr']);
    writeFileSync(join(dir, 'leaf.ext'), `subjectAltName=${subjectAltNames(hosts)}\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n`);
    run(['x509', '-req', '-in', 'leaf.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-days', '7', '-sha256', '-extfile', 'leaf.ext', '-out', 'leaf.pem']);
    const leaf = readFileSync(join(dir, 'leaf.pem'));
    const ca = readFileSync(join(dir, 'ca.pem'));
    return { key: readFileSync(join(dir, 'leaf.key')), cert: Buffer.concat([leaf, ca]), ca, spkiHash: spkiHashOf(leaf) };
  } catch (e) {
    const err = e as { code?: string; stderr?: Buffer };
    if (err.code === 'ENOENT') throw new Error('the openssl command is needed to make the replay certificate and was not found');
    throw new Error(`openssl failed to make the replay certificate: ${err.stderr?.toString().trim() ?? String(e)}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
