import { test } from 'node:test';
import assert from 'node:assert/strict';
import { X509Certificate, createPrivateKey, createPublicKey } from 'node:crypto';
import { makeReplayCert, spkiHashOf, subjectAltNames } from './cert.ts';

test('subjectAltNames: DNS names and IP literals', () => {
  assert.equal(subjectAltNames(['a.test', '10.0.0.1', '[::1]']), 'DNS:localhost,IP:127.0.0.1,DNS:a.test,IP:10.0.0.1,IP:::1');
});

test('the replay certificate: a CA-signed leaf for every host, its SPKI hash matches its key', () => {
  const c = makeReplayCert(['a.pcp.test', 'www.example.org', '192.0.2.7']);
  const pems = c.cert.toString().split(/(?<=-----END CERTIFICATE-----\n)/).filter((s) => s.trim());
  const leaf = new X509Certificate(pems[0]!);
  const ca = new X509Certificate(c.ca);
  assert.ok(leaf.verify(ca.publicKey), 'signed by the CA');
  assert.ok(ca.ca && !leaf.ca);
  for (const h of ['a.pcp.test', 'www.example.org']) assert.equal(leaf.checkHost(h), h);
  assert.equal(leaf.checkIP('192.0.2.7'), '192.0.2.7');
  assert.equal(leaf.checkHost('other.test'), undefined);
  assert.equal(c.spkiHash, spkiHashOf(createPublicKey(createPrivateKey(c.key)).export({ type: 'spki', format: 'pem' })));
  assert.equal(Buffer.from(c.spkiHash, 'base64').length, 32);
});
