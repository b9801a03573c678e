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

function generatePassword(): string {
  // 18 URL-safe characters (~108 bits); drawn again until it meets the §5 policy.
  for (;;) {
    const candidate = randomBytes(14).toString('base64url').slice(0, 18);
    if (patterns.password.test(candidate)) return candidate;
  }
}

export async function bootstrap(db: Kysely<Database>, config: ServerConfig, now: number): Promise<void> {
  let root = await db.selectFrom('tenants').select('id').where('parentId', 'is', null).executeTakeFirst();
  if (!root) {
    const id = newId();
    await db.insertInto('tenants').values({
      id, parentId: null, path: `/${id}/`, name: 'root', type: 'root', scope: Scope.Platform,
      status: Status.Enable, description: null, version: 1, createdAt: now, updatedAt: now,
    }).execute();
    root = { id };
  }
  const anyUser = await db.selectFrom('users').select('id').limit(1).executeTakeFirst();
  if (anyUser) return;
  const generated = config.adminPassword === undefined;
  const password = config.adminPassword ?? generatePassword();
  await db.insertInto('users').values({
    id: newId(), username: config.adminUsername, realName: config.adminUsername,
    email: null, mobilePhone: null, description: null, availabilityStatus: Status.Enable, avatar: null,
    extraProp: '{}', userType: UserType.System, tenantId: root.id, isAdmin: 1, isMaster: 1,
    passwordHash: await hashPassword(await transformPassword(password)), passwordChangedAt: now,
    version: 1, createdAt: now, updatedAt: now,
  }).execute();
  if (generated) config.onAdminPasswordGenerated(config.adminUsername, password);
}
