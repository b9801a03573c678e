// The identity provider's signing keys, in the database so every server process signs with the same
// one. One key is 'active' (it signs); during a rotation a second one is published in the metadata
// beside it: first the 'next' key (published before it signs, so service providers that read the
// metadata trust it in time), then, once promoted, the 'previous' one (so a response signed just
// before the switch still verifies). Each rotation takes one step:
//   { active A } → { active A, next B } → { active B, previous A } → { active B, next C } …
import { randomUUID, webcrypto } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/tables';
import type { SamlKeyState } from '../../src/core/schemas/saml';
import { lazy, reflectMetadata } from '../lazy';

/** @peculiar/x509 (and the reflect-metadata its container wants), loaded when a key is first made. */
const x509Library = lazy(async () => {
  await reflectMetadata();
  return import('@peculiar/x509');
});

const algorithm = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256', publicExponent: new Uint8Array([1, 0, 1]), modulusLength: 2048 };
const TEN_YEARS_MS = 10 * 365 * 24 * 3600 * 1000;

export interface SigningKey {
  id: string;
  privateKey: string;
  certificate: string;
}

/** A new RSA key and its self-signed certificate (PEM both). */
export async function createKey(name: string, now: number): Promise<{ privateKey: string; certificate: string }> {
  const x509 = await x509Library();
  x509.cryptoProvider.set(webcrypto as Crypto);
  const keys = await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify']);
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: randomUUID().replaceAll('-', ''),
    name: `CN=${name}`,
    notBefore: new Date(now - 60_000),
    notAfter: new Date(now + TEN_YEARS_MS),
    signingAlgorithm: algorithm,
    keys,
  });
  const pkcs8 = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey)).toString('base64');
  return {
    privateKey: `-----BEGIN PRIVATE KEY-----\n${pkcs8.replace(/.{1,64}/g, '$&\n')}-----END PRIVATE KEY-----\n`,
    certificate: certificate.toString('pem'),
  };
}

/** The published keys, the active one first; the first caller on an empty table creates it. */
export async function publishedKeys(db: Kysely<Database>, now: number): Promise<SigningKey[]> {
  let rows = await db.selectFrom('samlIdpKeys').select(['id', 'state', 'privateKey', 'certificate']).orderBy('createdAt').execute();
  if (!rows.some((row) => row.state === 'active')) {
    // A fixed id: two processes starting at once create one active key, not two.
    await db
      .insertInto('samlIdpKeys')
      .values({ id: 'saml-signing-1', state: 'active', ...(await createKey('iam-console SAML signing', now)), createdAt: now })
      .onConflict((conflict) => conflict.column('id').doNothing())
      .execute();
    rows = await db.selectFrom('samlIdpKeys').select(['id', 'state', 'privateKey', 'certificate']).orderBy('createdAt').execute();
  }
  return [...rows.filter((row) => row.state === 'active'), ...rows.filter((row) => row.state !== 'active')];
}

/** One rotation step (see above); answers the states after it. */
export async function rotateKeys(db: Kysely<Database>, now: number): Promise<{ id: string; state: SamlKeyState; createdAt: number }[]> {
  const [active, other] = await publishedKeys(db, now);
  if (other?.id && (await db.selectFrom('samlIdpKeys').select('state').where('id', '=', other.id).executeTakeFirst())?.state === 'next') {
    await db.updateTable('samlIdpKeys').set({ state: 'previous' }).where('id', '=', active!.id).execute();
    await db.updateTable('samlIdpKeys').set({ state: 'active' }).where('id', '=', other.id).execute();
  } else {
    if (other) await db.deleteFrom('samlIdpKeys').where('id', '=', other.id).execute();
    await db
      .insertInto('samlIdpKeys')
      .values({ id: randomUUID(), state: 'next', ...(await createKey('iam-console SAML signing', now)), createdAt: now })
      .execute();
  }
  return keyStates(db);
}

export const keyStates = (db: Kysely<Database>) =>
  db.selectFrom('samlIdpKeys').select(['id', 'state', 'createdAt']).orderBy('createdAt').$narrowType<{ state: SamlKeyState }>().execute();
