// The provider's keys live in the database so that every server process signs and verifies with
// the same ones: the first process to start creates them; the others find them.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { JWK } from 'oidc-provider';
import type { OidcDatabase } from './tables';

async function keyOf(db: Kysely<OidcDatabase>, id: string, kind: string, create: () => string, now: number): Promise<string> {
  await db
    .insertInto('oidcKeys')
    .values({ id, kind, material: create(), createdAt: now })
    .onConflict((conflict) => conflict.column('id').doNothing())
    .execute();
  const row = await db.selectFrom('oidcKeys').select('material').where('id', '=', id).executeTakeFirstOrThrow();
  return row.material;
}

export async function providerKeys(db: Kysely<OidcDatabase>, now: number): Promise<{ jwks: { keys: JWK[] }; cookieKeys: string[] }> {
  const signing = await keyOf(
    db,
    'signing-rs256-1',
    'signing',
    () => {
      const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      const jwk = privateKey.export({ format: 'jwk' });
      return JSON.stringify({ ...jwk, kid: randomBytes(8).toString('hex'), use: 'sig', alg: 'RS256' });
    },
    now,
  );
  const cookie = await keyOf(db, 'cookie-1', 'cookie', () => randomBytes(32).toString('base64url'), now);
  return { jwks: { keys: [JSON.parse(signing) as JWK] }, cookieKeys: [cookie] };
}
