// Two server processes on one database both run the outbox: every queued message is delivered
// exactly once (the claim is atomic), on SQLite and PostgreSQL.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildApp, type App } from '../../server/app';
import { outboxDb } from '../../server/channels/tables';
import { ADMIN, createTestDatabase, type TestDatabase } from './harness';
import { startHttpReceiver, until, type HttpReceiver } from './receivers';

let database: TestDatabase;
let apps: App[] = [];
let http: HttpReceiver;

before(async () => {
  database = await createTestDatabase();
  http = await startHttpReceiver({ robotToken: 'unused', dingTalkSecret: 'unused' });
  // outboundAllowPrivate: the SMS vendor is a receiver on this machine.
  const options = { ...database.options, adminUsername: ADMIN.username, adminPassword: ADMIN.password, outboundAllowPrivate: true };
  // One after the other: the first creates the schema and the administrator.
  apps.push(await buildApp(options));
  apps.push(await buildApp(options));
  await Promise.all(apps.map((app) => app.ready()));
});

after(async () => {
  await Promise.all(apps.map((app) => app.close()));
  apps = [];
  await http.stop();
  await database.drop();
});

test('each queued message is sent once although two processes deliver', async () => {
  const [first] = apps;
  const ctx = first!.ctx;
  const now = ctx.now();
  await ctx.db
    .insertInto('channels')
    .values({
      id: 'sms-channel',
      name: 'SMS',
      serviceType: 'SMS',
      vendor: 'acme',
      config: JSON.stringify({ url: `${http.base}/sms`, templateId: 'T1' }),
      enabled: 1,
      version: 1,
      createdAt: now,
      updatedAt: now,
    })
    .execute();
  const phones = Array.from({ length: 40 }, (_, index) => `1380000${String(index).padStart(4, '0')}`);
  await outboxDb(ctx.db)
    .insertInto('messages')
    .values(
      phones.map((phone, index) => ({
        id: `queued-${index}`,
        recipientId: null,
        address: phone,
        serviceType: 'SMS',
        vendor: null,
        title: 'Notice',
        content: `Message ${index}`,
        status: 'queued',
        pushTime: now + index,
        readAt: null,
        createdAt: now,
        channelId: null,
        error: null,
        attempts: 0,
        nextAttemptAt: null,
        sentAt: null,
        params: null,
      })),
    )
    .execute();

  await until(
    async () => {
      const row = await ctx.db
        .selectFrom('messages')
        .select((eb) => eb.fn.countAll().as('count'))
        .where('status', '=', 'sent')
        .executeTakeFirst();
      return Number(row?.count) === phones.length;
    },
    'every message sent',
    30_000,
  );
  const received = http.calls.filter((call) => call.path === '/sms').map((call) => (call.body as { phone: string }).phone);
  assert.equal(received.length, phones.length, 'no message sent twice');
  assert.deepEqual([...received].sort(), [...phones].sort());
  const attempts = await outboxDb(ctx.db).selectFrom('messages').select('attempts').execute();
  assert.ok(attempts.every((row) => row.attempts === 1));
});
