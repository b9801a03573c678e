// Migration 0011_unique_contacts on a database that already holds squatted addresses: it does not
// fail; the oldest account keeps each address, later copies are cleared and written to the audit
// log, and from then on the database itself refuses a second account with the address.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { openDatabase } from '../../server/db/connect';
import { createTestDatabase } from './harness';
import { isUniqueViolation } from '../../server/db/errors';

test('duplicates in an existing database: the oldest account keeps the address, later ones are cleared and audited', async () => {
  const database = await createTestDatabase();
  const options = { dataDir: database.options.dataDir ?? '', databaseUrl: database.options.databaseUrl };
  try {
    // A database as it was before 0011: built, then 0011 undone.
    const before = await openDatabase(options);
    await sql`drop index users_email_unique`.execute(before.kysely);
    await sql`drop index users_mobile_phone_unique`.execute(before.kysely);
    await sql`alter table one_time_codes drop column sent_to`.execute(before.kysely);
    await sql`delete from kysely_migration where name = '0011_unique_contacts'`.execute(before.kysely);
    const person = (id: string, createdAt: number, email: string | null, mobilePhone: string | null) => ({
      id,
      username: id,
      realName: 'Old_Data',
      email,
      mobilePhone,
      description: null,
      availabilityStatus: 1,
      avatar: null,
      extraProp: '{}',
      userType: 1,
      tenantId: null,
      isAdmin: 0,
      isMaster: 0,
      passwordHash: 'x',
      passwordChangedAt: createdAt,
      version: 1,
      createdAt,
      updatedAt: createdAt,
    });
    await before.kysely
      .insertInto('users')
      .values([
        person('owner', 1000, 'Owner@Example.com', '13700000001'),
        person('squatter', 2000, 'owner@example.com', '13700000001'),
        person('another', 3000, 'OWNER@example.com', null),
        person('free-one', 4000, null, null),
        person('free-two', 5000, null, null),
      ])
      .execute();
    await before.close();

    const after = await openDatabase(options);
    try {
      const rows = await after.kysely
        .selectFrom('users')
        .select(['id', 'email', 'mobilePhone', 'version'])
        .where('realName', '=', 'Old_Data')
        .orderBy('createdAt')
        .execute();
      assert.deepEqual(
        rows.map((row) => [row.id, row.email, row.mobilePhone]),
        [
          ['owner', 'Owner@Example.com', '13700000001'],
          ['squatter', null, null],
          ['another', null, null],
          ['free-one', null, null],
          ['free-two', null, null],
        ],
      );
      const audited = await after.kysely
        .selectFrom('auditLog')
        .select(['targetId', 'detail'])
        .where('actorName', '=', 'migration 0011_unique_contacts')
        .orderBy('id')
        .execute();
      assert.deepEqual(audited.map((row) => [row.targetId, (JSON.parse(row.detail) as { cleared: string; value: string }).value]).sort(), [
        ['another', 'OWNER@example.com'],
        ['squatter', '13700000001'],
        ['squatter', 'owner@example.com'],
      ]);
      const copy = after.kysely.insertInto('users').values({ ...person('late', 6000, 'OWNER@EXAMPLE.COM', null) });
      await assert.rejects(copy.execute(), (error: unknown) => isUniqueViolation(error));
    } finally {
      await after.close();
    }
  } finally {
    await database.drop();
  }
});
