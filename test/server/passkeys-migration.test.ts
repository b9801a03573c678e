// Migration 0025_passkey_credentials on a database that ran the first 0022_passkeys (a passkeys
// table of id and user_id only, the account-security work's stand-in): the start runs 0025, which
// leaves the real passkeys table and the challenges table, and a passkey row can be stored.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { openDatabase } from '../../server/db/connect';
import { createTestDatabase } from './harness';
import { isUniqueViolation } from '../../server/db/errors';

test('a database with the 0022 stand-in table gets the real passkeys table from 0025', async () => {
  const database = await createTestDatabase();
  const options = { dataDir: database.options.dataDir ?? '', databaseUrl: database.options.databaseUrl };
  try {
    // A database as main left it before 0025: built, then 0025 undone and the stand-in put back.
    const before = await openDatabase(options);
    await sql`drop table webauthn_challenges`.execute(before.kysely);
    await sql`drop table passkeys`.execute(before.kysely);
    await sql`create table passkeys (id text primary key, user_id text not null references users (id) on delete cascade)`.execute(before.kysely);
    await sql`delete from kysely_migration where name = '0025_passkey_credentials'`.execute(before.kysely);
    await before.close();

    const after = await openDatabase(options);
    try {
      const ran = await sql<{ name: string }>`select name from kysely_migration where name = '0025_passkey_credentials'`.execute(after.kysely);
      assert.equal(ran.rows.length, 1, '0025 ran at the start');
      await after.kysely
        .insertInto('users')
        .values({
          id: 'u1',
          username: 'u1',
          realName: 'Key_Holder',
          email: null,
          mobilePhone: null,
          description: null,
          availabilityStatus: 1,
          avatar: null,
          extraProp: '{}',
          userType: 1,
          tenantId: null,
          isAdmin: 0,
          isMaster: 0,
          passwordHash: 'x',
          passwordChangedAt: 1,
          version: 1,
          createdAt: 1,
          updatedAt: 1,
        })
        .execute();
      // Only the columns without a default: the others take theirs.
      const insert = (id: string, credentialId: string) =>
        sql`insert into passkeys (id, user_id, credential_id, public_key, device_type, name, created_at)
            values (${id}, 'u1', ${credentialId}, 'pk', 'singleDevice', 'Laptop', 1)`.execute(after.kysely);
      await insert('p1', 'cred-1');
      await assert.rejects(insert('p2', 'cred-1'), isUniqueViolation, 'one account per credential');
      const stored = await after.kysely.selectFrom('passkeys').selectAll().executeTakeFirstOrThrow();
      assert.deepEqual([Number(stored.counter), stored.transports, Number(stored.backedUp), stored.lastUsedAt], [0, '[]', 0, null]);
      await after.kysely.insertInto('webauthnChallenges').values({ challenge: 'c1', purpose: 'login', userId: null, sessionId: null, expiresAt: 1 }).execute();
    } finally {
      await after.close();
    }
  } finally {
    await database.drop();
  }
});
