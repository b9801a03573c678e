// License: request code, issue with the vendor tool, activate, expire, tamper, foreign, over limit.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, transform, type Client, type TestServer } from './harness';
import { generateVendorKeys, signLicense, type LicensePayload } from '../../server/license/codec';
import type { LicenseStatus } from '../../src/core/types';

const keysDir = mkdtempSync(join(tmpdir(), 'iam-license-'));
let server: TestServer;
let admin: Client;
let requestCode: string;
let vendorPrivate: string;

before(async () => {
  // The vendor tool itself makes the key pair (npm run license -- keygen).
  execFileSync(process.execPath, ['scripts/license.mjs', 'keygen', '--out', keysDir]);
  vendorPrivate = join(keysDir, 'vendor-private.pem');
  server = await startServer({ licensePublicKey: readFileSync(join(keysDir, 'vendor-public.pem'), 'utf8') });
  admin = await server.admin();
  requestCode = (await admin.get<string>('/api/license/auth')).body.data;
});
after(async () => {
  await server.stop();
  rmSync(keysDir, { recursive: true, force: true });
});

const issue = (args: string[]) =>
  execFileSync(process.execPath, ['scripts/license.mjs', 'issue', '--key', vendorPrivate, ...args], { encoding: 'utf8' }).trim();

const payload = (changes: Partial<LicensePayload> = {}): LicensePayload => ({
  v: 1,
  licensee: 'ACME',
  requestCode,
  issuedAt: new Date().toISOString(),
  expiresAt: new Date(Date.now() + 86_400_000 * 30).toISOString(),
  userLimit: 10,
  ...changes,
});

test('a fresh installation has a stable request code and no license', async () => {
  assert.match(requestCode, /^IAM1-[\w-]+$/);
  assert.equal((await admin.get<string>('/api/license/auth')).body.data, requestCode);
  assert.equal((await admin.get<LicenseStatus>('/api/license/status')).body.data.status, 'missing');
});

test('a license issued by the vendor tool for this request code activates; status reports it', async () => {
  const license = issue(['--request', requestCode, '--licensee', 'ACME Corp', '--expires', '2099-12-31', '--users', '50']);
  const answer = await admin.post<LicenseStatus>('/api/license/auth', { newLicense: license });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  assert.equal(answer.body.data.status, 'valid');
  assert.equal(answer.body.data.licensee, 'ACME Corp');
  assert.equal(answer.body.data.userLimit, 50);
  const status = await admin.get<LicenseStatus>('/api/license/status');
  assert.equal(status.body.data.status, 'valid');
  assert.equal(status.body.data.users, 1);
});

test('tampered, foreign, malformed and expired licenses are refused with a clear message', async () => {
  const good = signLicense(payload(), readFileSync(vendorPrivate, 'utf8'));
  const [body, signature] = good.split('.');
  const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body!, 'base64url').toString()), userLimit: 100000 })).toString('base64url');
  const tampered = await admin.post('/api/license/auth', { newLicense: `${forged}.${signature}` });
  assert.equal(tampered.status, 400);
  assert.match(tampered.body.message, /signature is invalid/);

  const otherVendor = signLicense(payload(), generateVendorKeys().privateKey);
  assert.match((await admin.post('/api/license/auth', { newLicense: otherVendor })).body.message, /signature is invalid/);

  const foreign = issue(['--request', 'IAM1-someone-else', '--licensee', 'ACME', '--expires', '2099-01-01', '--users', '5']);
  const foreignAnswer = await admin.post('/api/license/auth', { newLicense: foreign });
  assert.equal(foreignAnswer.status, 400);
  assert.match(foreignAnswer.body.message, /another installation/);

  assert.match((await admin.post('/api/license/auth', { newLicense: 'not-a-license' })).body.message, /malformed/);
  const expired = signLicense(payload({ expiresAt: new Date(Date.now() - 1000).toISOString() }), readFileSync(vendorPrivate, 'utf8'));
  assert.match((await admin.post('/api/license/auth', { newLicense: expired })).body.message, /expired/);
  assert.equal((await admin.get<LicenseStatus>('/api/license/status')).body.data.status, 'valid', 'the active license stays');
  const audit = await server.app.ctx.db.selectFrom('auditLog').select('action').where('action', '=', 'license.refused').execute();
  assert.equal(audit.length, 5);
});

test('a license whose base64url carries junk, padding or another spelling of its bytes is malformed', async () => {
  const good = signLicense(payload({ licensee: 'Strict Corp' }), readFileSync(vendorPrivate, 'utf8'));
  const [body = '', signature = ''] = good.split('.');
  const insert = (text: string, junk: string) => `${text.slice(0, 10)}${junk}${text.slice(10)}`;
  // The signature of an Ed25519 key is 64 bytes: 86 characters whose last one carries 4 unused bits.
  const lastBits =
    signature.slice(0, -1) +
    'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'[
      'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'.indexOf(signature.at(-1)!) ^ 1
    ];
  const variants = [
    `${insert(body, '!')}.${signature}`,
    `${insert(body, '*')}.${signature}`,
    `${insert(body, '%20')}.${signature}`,
    `${insert(body, ' ')}.${signature}`,
    `${insert(body, '\n')}.${signature}`,
    `${body}.${insert(signature, '$')}`,
    `${body}.${signature}==`,
    `${body}==.${signature}`,
    `${body}.${signature.replace(/[-_]|$/, (char) => (char === '-' ? '+' : char === '_' ? '/' : '+'))}`,
    `${body}.${lastBits}`,
  ];
  for (const newLicense of variants) {
    const answer = await admin.post('/api/license/auth', { newLicense });
    assert.equal(answer.status, 400, newLicense);
    assert.match(answer.body.message, /malformed/, newLicense);
  }
});

test('an older genuine license cannot replace a newer one', async () => {
  const key = readFileSync(vendorPrivate, 'utf8');
  const newer = signLicense(payload({ licensee: 'Newer' }), key);
  const older = signLicense(payload({ licensee: 'Older', issuedAt: new Date(Date.now() - 86_400_000).toISOString(), userLimit: 100_000 }), key);
  assert.equal((await admin.post<LicenseStatus>('/api/license/auth', { newLicense: newer })).status, 200);
  const replay = await admin.post('/api/license/auth', { newLicense: older });
  assert.equal(replay.status, 400, JSON.stringify(replay.body));
  assert.match(replay.body.message, /issued before the active one/);
  assert.equal((await admin.get<LicenseStatus>('/api/license/status')).body.data.licensee, 'Newer');
  // The same license again, or a later one, still installs.
  assert.equal((await admin.post('/api/license/auth', { newLicense: newer })).status, 200);
});

test('of two genuine licenses of the same day, the one issued a second earlier cannot replace the later one', async () => {
  const key = readFileSync(vendorPrivate, 'utf8');
  const at = Date.now();
  const later = signLicense(payload({ licensee: 'Later', issuedAt: new Date(at).toISOString(), userLimit: 10 }), key);
  const earlier = signLicense(payload({ licensee: 'Earlier', issuedAt: new Date(at - 1000).toISOString(), userLimit: 100_000 }), key);
  assert.equal((await admin.post<LicenseStatus>('/api/license/auth', { newLicense: later })).status, 200);
  const swap = await admin.post('/api/license/auth', { newLicense: earlier });
  assert.equal(swap.status, 400, JSON.stringify(swap.body));
  assert.match(swap.body.message, /issued before the active one/);
  assert.equal((await admin.get<LicenseStatus>('/api/license/status')).body.data.licensee, 'Later');
});

test('an active license expires with time, and reports over_limit past its user count', async () => {
  const license = signLicense(
    payload({ expiresAt: new Date(server.clock.now() + 3_600_000).toISOString(), userLimit: 1 }),
    readFileSync(vendorPrivate, 'utf8'),
  );
  assert.equal((await admin.post<LicenseStatus>('/api/license/auth', { newLicense: license })).body.data.status, 'valid');
  await admin.post('/api/user', { username: 'one-more', realName: 'One_More', password: transform('Secret123') });
  assert.equal((await admin.get<LicenseStatus>('/api/license/status')).body.data.status, 'over_limit');
  server.clock.advance(2 * 3_600_000);
  admin = await server.admin(); // the old session idled out meanwhile
  assert.equal((await admin.get<LicenseStatus>('/api/license/status')).body.data.status, 'expired');
});

test('only settings administrators read the request code or activate', async () => {
  await admin.post('/api/user', { username: 'plain-user', realName: 'Plain_User', password: transform('Secret123') });
  const plain = server.client();
  await plain.login('plain-user', 'Secret123');
  assert.equal((await plain.get('/api/license/auth')).status, 403);
  assert.equal((await plain.post('/api/license/auth', { newLicense: 'x' })).status, 403);
  assert.equal((await plain.get('/api/license/status')).status, 200);
});
