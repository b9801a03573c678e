// An app's SAML encryption certificate, attacked from outside: the assertion key is transported
// with RSA-OAEP (docs/saml.md), so a certificate whose key is not RSA cannot be used. It is refused
// when it is registered (400 on the field), not accepted and then failing every sign-in to the app
// with a server error.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID, webcrypto } from 'node:crypto';
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { startServer, transform, type Client, type TestServer } from './harness';
import { ok, ServiceProvider } from './saml-support';

let server: TestServer;
let admin: Client;

before(async () => {
  server = await startServer();
  admin = await server.admin();
});
after(() => server.stop());

async function ecCertificate(): Promise<string> {
  x509.cryptoProvider.set(webcrypto as Crypto);
  const algorithm = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  const keys = await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify']);
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: randomUUID().replaceAll('-', ''),
    name: 'CN=EC app',
    notBefore: new Date(Date.now() - 60_000),
    notAfter: new Date(Date.now() + 3600_000),
    signingAlgorithm: algorithm,
    keys,
  });
  return certificate.toString('pem');
}

test('an encryption certificate whose key is not RSA is refused when registered (400 on encryptionCert)', async () => {
  const provider = await ServiceProvider.register(server, admin, 'Ec_Encryption_App');
  const saved = await admin.put<{ fields?: { field: string }[] }>(`/api/apps/${provider.appId}/saml-provider`, { encryptionCert: await ecCertificate() });
  if (saved.status === 200) {
    // Accepted: show what it does to the app's sign-ins.
    await ok(admin.post('/api/user', { username: 'ec-enc-lee', realName: 'Lee', email: 'ec-enc-lee@example.test', password: transform('Secret123') }));
    const browser = server.client();
    assert.equal((await browser.login('ec-enc-lee', 'Secret123')).status, 200);
    const first = await provider.sendAuthnRequest(browser);
    const id = new URL(first.headers.get('location')!, 'http://x').searchParams.get('request')!;
    const next = await ok(browser.post<{ redirectURL: string }>(`/api/saml/requests/${id}`, { allow: true }));
    const page = await browser.raw('GET', next.redirectURL);
    assert.fail(`an EC encryption certificate was accepted (200); the app's sign-in then answers ${page.status}`);
  }
  assert.equal(saved.status, 400, JSON.stringify(saved.body));
  assert.equal(saved.body.data?.fields?.[0]?.field, 'encryptionCert');
});
