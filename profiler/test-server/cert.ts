/**
 * A throwaway self-signed certificate for the test server's TLS origins, made by the `openssl` CLI
 * at run time (no key material is committed). It names *.pcp.test so a browser told to ignore
 * certificate errors, or a client with the cert as CA, can talk to every test origin.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface SelfSignedCert {
  key: Buffer;
  cert: Buffer;
}

export function makeSelfSignedCert(domain: string): SelfSignedCert {
  const dir = mkdtempSync(join(tmpdir(), 'pcp-cert-'));
  try {
    const keyPath = join(dir, 'key.pem');
    const certPath = join(dir, 'cert.pem');
    execFileSync(
      'openssl',
      [
        'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
        '-days', '7', '-subj', `/CN=${domain}`,
        '-addext', `subjectAltName=DNS:${domain},DNS:*.${domain},DNS:localhost,IP:127.0.0.1`,
        '-keyout', keyPath, '-out', certPath,
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    return { key: readFileSync(keyPath), cert: readFileSync(certPath) };
  } catch (e) {
    const err = e as { code?: string; stderr?: Buffer };
    if (err.code === 'ENOENT') throw new Error('the openssl command is needed for TLS test origins and was not found');
    throw new Error(`openssl failed to make a test certificate: ${err.stderr?.toString().trim() ?? String(e)}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
