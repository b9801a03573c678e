// First start: the root tenant and the first platform administrator (IAM_ADMIN_USERNAME /
// IAM_ADMIN_PASSWORD; without a password one is generated and handed to the caller once).
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from './db/tables';
import type { ServerConfig } from './config';
import { transformPassword } from '../src/core/password';
import { patterns } from '../src/core/validation';
import { Scope, Status, UserType } from '../src/core/enums';
import { hashPassword } from './auth/kdf';
import { newId } from './auth/secrets';

/** The root tenant of a fresh installation (older installations keep the random id they have). */
const ROOT_TENANT_ID = '00000000-0000-4000-8000-000000000001';

function generatePassword(): string {
  // 18 URL-safe characters (~108 bits); drawn again until it meets the policy.
  for (;;) {
    const candidate = randomBytes(14).toString('base64url').slice(0, 18);
    if (patterns.password.test(candidate)) return candidate;
  }
}

export async function bootstrap(db: Kysely<Database>, config: ServerConfig, now: number): Promise<void> {
  let root = await db.selectFrom('tenants').select('id').where('parentId', 'is', null).executeTakeFirst();
  if (!root) {
    // A fixed id, so that processes starting together on a fresh database make one root, not two.
    const id = ROOT_TENANT_ID;
    await db
      .insertInto('tenants')
      .values({
        id,
        parentId: null,
        path: `/${id}/`,
        name: 'root',
        type: 'root',
        scope: Scope.Platform,
        status: Status.Enable,
        description: null,
        version: 1,
        createdAt: now,
        updatedAt: now,
      })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    root = { id };
  }
  const anyUser = await db.selectFrom('users').select('id').limit(1).executeTakeFirst();
  if (anyUser) return;
  const generated = config.adminPassword === undefined;
  const password = config.adminPassword ?? generatePassword();
  const inserted = await db
    .insertInto('users')
    .values({
      id: newId(),
      username: config.adminUsername,
      realName: config.adminUsername,
      email: null,
      mobilePhone: null,
      description: null,
      availabilityStatus: Status.Enable,
      avatar: null,
      extraProp: '{}',
      userType: UserType.System,
      tenantId: root.id,
      isAdmin: 1,
      isMaster: 1,
      passwordHash: await hashPassword(await transformPassword(password)),
      passwordChangedAt: now,
      version: 1,
      createdAt: now,
      updatedAt: now,
    })
    // No conflict target: the name is unique by two indexes (as written, and folded to lower case),
    // and a target names only one of them; which one another process's insert meets first varies.
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  // Another process starting at the same time may have made the administrator first.
  if (generated && Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) config.onAdminPasswordGenerated(config.adminUsername, password);
}
