// Schema migrations, one portable definition for SQLite and PostgreSQL (Kysely's schema builder).
// Append new migrations; never edit one that has shipped.
import { DEFAULT_MIGRATION_TABLE, Migrator, sql, type Kysely, type Migration, type CreateTableBuilder } from 'kysely';
import { sanitizeSvg } from '../files/svg';

type Engine = 'sqlite' | 'postgres';
type Table = CreateTableBuilder<string, never>;

function initial(engine: Engine): Migration {
  const blob = engine === 'postgres' ? 'bytea' : 'blob';
  const stamps = (t: Table) =>
    t
      .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull());
  return {
    async up(db: Kysely<unknown>) {
      await stamps(
        db.schema
          .createTable('tenants')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('parent_id', 'text', (c) => c.references('tenants.id').onDelete('restrict'))
          .addColumn('path', 'text', (c) => c.notNull())
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('type', 'text', (c) => c.notNull())
          .addColumn('scope', 'integer', (c) => c.notNull())
          .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
          .addColumn('description', 'text'),
      ).execute();
      await db.schema.createIndex('tenants_path').on('tenants').column('path').execute();
      await db.schema.createIndex('tenants_parent').on('tenants').column('parent_id').execute();

      await stamps(
        db.schema
          .createTable('users')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('username', 'text', (c) => c.notNull().unique())
          .addColumn('real_name', 'text', (c) => c.notNull())
          .addColumn('email', 'text')
          .addColumn('mobile_phone', 'text')
          .addColumn('description', 'text')
          .addColumn('availability_status', 'integer', (c) => c.notNull().defaultTo(1))
          .addColumn('avatar', 'text')
          .addColumn('extra_prop', 'text', (c) => c.notNull().defaultTo('{}'))
          .addColumn('user_type', 'integer', (c) => c.notNull())
          .addColumn('tenant_id', 'text', (c) => c.references('tenants.id').onDelete('restrict'))
          .addColumn('is_admin', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('is_master', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('password_hash', 'text', (c) => c.notNull())
          .addColumn('password_changed_at', 'bigint', (c) => c.notNull()),
      ).execute();
      for (const column of ['real_name', 'email', 'mobile_phone', 'tenant_id', 'created_at']) {
        await db.schema.createIndex(`users_${column}`).on('users').column(column).execute();
      }

      await stamps(
        db.schema
          .createTable('apps')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('name', 'text', (c) => c.notNull().unique())
          .addColumn('detail', 'text')
          .addColumn('entrypoint', 'text')
          .addColumn('callback_url', 'text')
          .addColumn('is_master', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1)),
      ).execute();

      await db.schema
        .createTable('app_admins')
        .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addPrimaryKeyConstraint('app_admins_pk', ['app_id', 'user_id'])
        .execute();
      await db.schema.createIndex('app_admins_user').on('app_admins').column('user_id').execute();

      await db.schema
        .createTable('privileges')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
        .addColumn('parent_id', 'text', (c) => c.references('privileges.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('path', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('privileges_app_key', ['app_id', 'key'])
        .execute();

      await stamps(
        db.schema
          .createTable('roles')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('description', 'text')
          .addUniqueConstraint('roles_app_name', ['app_id', 'name']),
      ).execute();

      await db.schema
        .createTable('role_privileges')
        .addColumn('role_id', 'text', (c) => c.notNull().references('roles.id').onDelete('cascade'))
        .addColumn('privilege_id', 'text', (c) => c.notNull().references('privileges.id').onDelete('cascade'))
        .addPrimaryKeyConstraint('role_privileges_pk', ['role_id', 'privilege_id'])
        .execute();
      await db.schema
        .createTable('role_members')
        .addColumn('role_id', 'text', (c) => c.notNull().references('roles.id').onDelete('cascade'))
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addPrimaryKeyConstraint('role_members_pk', ['role_id', 'user_id'])
        .execute();
      await db.schema.createIndex('role_members_user').on('role_members').column('user_id').execute();

      await stamps(
        db.schema
          .createTable('menu_plans')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('app_id', 'text', (c) => c.references('apps.id').onDelete('cascade'))
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('description', 'text')
          .addColumn('items', 'text', (c) => c.notNull().defaultTo('[]')),
      ).execute();
      await db.schema.createIndex('menu_plans_app').on('menu_plans').column('app_id').execute();

      await db.schema
        .createTable('settings')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();

      await stamps(
        db.schema
          .createTable('channels')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('service_type', 'text', (c) => c.notNull())
          .addColumn('vendor', 'text', (c) => c.notNull())
          .addColumn('config', 'text', (c) => c.notNull().defaultTo('{}'))
          .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1)),
      ).execute();

      await db.schema
        .createTable('messages')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('recipient_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
        .addColumn('address', 'text')
        .addColumn('service_type', 'text', (c) => c.notNull())
        .addColumn('vendor', 'text')
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('push_time', 'bigint', (c) => c.notNull())
        .addColumn('read_at', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('messages_recipient').on('messages').columns(['recipient_id', 'push_time']).execute();

      await db.schema
        .createTable('files')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('mime', 'text', (c) => c.notNull())
        .addColumn('size', 'integer', (c) => c.notNull())
        .addColumn('data', sql.raw(blob), (c) => c.notNull())
        .addColumn('created_by', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('sessions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('secret_hash', 'text', (c) => c.notNull().unique())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('auth_mode', 'text', (c) => c.notNull())
        .addColumn('ip', 'text')
        .addColumn('user_agent', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();

      await db.schema
        .createTable('captchas')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('client_hash', 'text', (c) => c.notNull())
        .addColumn('answer_hash', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('captchas_client').on('captchas').column('client_hash').execute();

      await db.schema
        .createTable('login_throttle')
        .addColumn('username', 'text', (c) => c.primaryKey())
        .addColumn('failures', 'integer', (c) => c.notNull())
        .addColumn('locked_until', 'bigint')
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('login_challenges')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('step', 'text', (c) => c.notNull())
        .addColumn('code_hash', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('login_challenges_user').on('login_challenges').column('user_id').execute();

      await db.schema
        .createTable('idps')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('code', 'text', (c) => c.notNull().unique())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('config', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('idp_tickets')
        .addColumn('ticket_hash', 'text', (c) => c.primaryKey())
        .addColumn('idp_code', 'text', (c) => c.notNull())
        .addColumn('token', 'text', (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('profile', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('audit_log')
        .addColumn('id', engine === 'postgres' ? 'bigserial' : 'integer', (c) => (engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('at', 'bigint', (c) => c.notNull())
        .addColumn('actor_id', 'text')
        .addColumn('actor_name', 'text')
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('target_type', 'text')
        .addColumn('target_id', 'text')
        .addColumn('tenant_id', 'text')
        .addColumn('ip', 'text')
        .addColumn('success', 'integer', (c) => c.notNull())
        .addColumn('detail', 'text', (c) => c.notNull().defaultTo('{}'))
        .execute();
      for (const column of ['at', 'action', 'actor_id', 'tenant_id']) {
        await db.schema.createIndex(`audit_log_${column}`).on('audit_log').column(column).execute();
      }
    },
  };
}

/** Links between an identity provider's subject and a local user (third-party sign-in). */
const idpLinks: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('idp_links')
      .addColumn('idp_code', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('idp_links_pk', ['idp_code', 'subject'])
      .execute();
  },
};

/** Delivery of outgoing messages (server/channels): the channel used, attempts, the last error,
 *  when the next attempt is due, when it was sent, SMS template parameters. */
const messageDelivery: Migration = {
  async up(db: Kysely<unknown>) {
    // One column per statement: SQLite adds one column at a time.
    await db.schema.alterTable('messages').addColumn('channel_id', 'text').execute();
    await db.schema.alterTable('messages').addColumn('error', 'text').execute();
    await db.schema
      .alterTable('messages')
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.alterTable('messages').addColumn('next_attempt_at', 'bigint').execute();
    await db.schema.alterTable('messages').addColumn('sent_at', 'bigint').execute();
    await db.schema.alterTable('messages').addColumn('params', 'text').execute();
    await db.schema.createIndex('messages_status').on('messages').columns(['status', 'next_attempt_at']).execute();
    await db.schema.createIndex('messages_channel').on('messages').columns(['channel_id', 'push_time']).execute();
  },
};

/** The OpenID Connect provider (server/oidc): its state (codes, tokens, sessions, interactions,
 *  grants) as JSON per model and id, its keys (shared by every process), and the apps' client secrets. */
const oidcProvider: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('oidc_payloads')
      .addColumn('model', 'text', (c) => c.notNull())
      .addColumn('id', 'text', (c) => c.notNull())
      .addColumn('payload', 'text', (c) => c.notNull())
      .addColumn('grant_id', 'text')
      .addColumn('uid', 'text')
      .addColumn('user_code', 'text')
      .addColumn('expires_at', 'bigint')
      .addColumn('consumed_at', 'bigint')
      .addPrimaryKeyConstraint('oidc_payloads_pk', ['model', 'id'])
      .execute();
    await db.schema.createIndex('oidc_payloads_grant').on('oidc_payloads').column('grant_id').execute();
    await db.schema.createIndex('oidc_payloads_uid').on('oidc_payloads').column('uid').execute();
    await db.schema.createIndex('oidc_payloads_expires').on('oidc_payloads').column('expires_at').execute();
    await db.schema
      .createTable('oidc_keys')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('material', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('oidc_clients')
      .addColumn('app_id', 'text', (c) => c.primaryKey().references('apps.id').onDelete('cascade'))
      .addColumn('secret', 'text', (c) => c.notNull())
      .addColumn('rotated_at', 'bigint', (c) => c.notNull())
      .execute();
  },
};

/** Third-party sign-in in progress (server/idp): PKCE verifier, state and nonce per browser. */
const idpFlows: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('idp_flows')
      .addColumn('state_hash', 'text', (c) => c.primaryKey())
      .addColumn('browser_hash', 'text', (c) => c.notNull())
      .addColumn('idp_code', 'text', (c) => c.notNull())
      .addColumn('code_verifier', 'text', (c) => c.notNull())
      .addColumn('nonce', 'text', (c) => c.notNull())
      .addColumn('redirect', 'text')
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('idp_flows_expires').on('idp_flows').column('expires_at').execute();
  },
};

/** TOTP authenticators (server/auth/totp.ts) and one-time codes sent through channels
 *  (server/auth/codes.ts: stored hashed, single use, short-lived). */
const totpAndCodes: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('user_totp')
      .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
      .addColumn('secret', 'text', (c) => c.notNull())
      .addColumn('confirmed_at', 'bigint')
      .addColumn('last_step', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('one_time_codes')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('purpose', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('code_hash', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('one_time_codes_user').on('one_time_codes').columns(['user_id', 'purpose', 'created_at']).execute();
  },
};

/** Provider tickets bound to the browser that started the third-party sign-in (the digest of its
 *  flow cookie); tickets issued before have none and are refused. */
const idpFlowBinding: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('idp_tickets').addColumn('browser_hash', 'text').execute();
  },
};

/** The provider's records know whose they are (every grant of a person is revoked at once, see
 *  server/oidc/revoke.ts; the rows written before carry it in their JSON), and apps register
 *  post-logout redirect URIs with their OIDC client. */
function sso(engine: Engine): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('oidc_payloads').addColumn('account_id', 'text').execute();
      const accountId = engine === 'postgres' ? sql`payload::json->>'accountId'` : sql`json_extract(payload, '$.accountId')`;
      await sql`update oidc_payloads set account_id = ${accountId}`.execute(db);
      await db.schema.createIndex('oidc_payloads_account').on('oidc_payloads').column('account_id').execute();
      await db.schema.alterTable('oidc_clients').addColumn('post_logout_redirect_uris', 'text').execute();
    },
  };
}

/** Rate-limit counters shared by every server process (server/http/rate-limit-store.ts): one row
 *  per route and client address, with the hits of the current window and when it ends. */
const sharedLimits: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('rate_limits')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('hits', 'integer', (c) => c.notNull())
      .addColumn('window_ends', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('rate_limits_window_ends').on('rate_limits').column('window_ends').execute();
  },
};

/** Per-app switches of the OIDC client: the client_credentials grant for the app's machines, and
 *  trusted apps whose authorization skips the consent page (set by the platform administrator). */
const ssoApps: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('oidc_clients')
      .addColumn('client_credentials', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .alterTable('oidc_clients')
      .addColumn('trusted', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  },
};

/** Back-channel logout: the app's logout URI, its JWT access tokens switch, and the logout tokens
 *  waiting for delivery (the outbox sends them, with retries). */
const backchannelLogout: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('oidc_clients').addColumn('backchannel_logout_uri', 'text').execute();
    await db.schema
      .alterTable('oidc_clients')
      .addColumn('jwt_access_tokens', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .createTable('oidc_logout_deliveries')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('sid', 'text')
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('next_attempt_at', 'bigint')
      .addColumn('error', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('oidc_logout_deliveries_due').on('oidc_logout_deliveries').columns(['status', 'next_attempt_at']).execute();
  },
};

/** The first passkeys table: only the columns server/auth/passkeys/has-passkey.ts reads, so the
 *  account-security policy could ask whether a person has a passkey before passkeys existed.
 *  Databases ran it under this name, so the real table is migration 0025 (passkeyCredentials). */
const passkeysPlaceholder: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('passkeys')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .execute();
  },
};

/** Account security (server/auth/recovery-codes.ts, server/auth/devices.ts): a person's recovery
 *  codes (keyed digests, each used once) and the devices they signed in from (the digest of a
 *  random id kept in a long-lived HttpOnly cookie), for the new-device notification. */
const accountSecurity: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('recovery_codes')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('code_hash', 'text', (c) => c.notNull())
      .addColumn('used_at', 'bigint')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('recovery_codes_user').on('recovery_codes').column('user_id').execute();
    await db.schema
      .createTable('known_devices')
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('device_hash', 'text', (c) => c.notNull())
      .addColumn('first_seen_at', 'bigint', (c) => c.notNull())
      .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('known_devices_pk', ['user_id', 'device_hash'])
      .execute();
  },
};

/** Outbound webhooks (server/webhooks/): the endpoints, each event's delivery to one of them
 *  (queued with the audit record it comes from; the outbox posts it, with retries) and every
 *  attempt's outcome; and the user CSV imports' jobs (server/services/user-import.ts), whose
 *  progress any server process can answer. */
const webhooksAndImports: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('webhooks')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('tenant_id', 'text', (c) => c.references('tenants.id').onDelete('cascade'))
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('events', 'text', (c) => c.notNull())
      .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('secret', 'text', (c) => c.notNull())
      .addColumn('secret_rotated_at', 'bigint', (c) => c.notNull())
      .addColumn('previous_secret', 'text')
      .addColumn('previous_secret_until', 'bigint')
      .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('webhooks_tenant').on('webhooks').column('tenant_id').execute();
    await db.schema
      .createTable('webhook_deliveries')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('webhook_id', 'text', (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
      .addColumn('message_id', 'text', (c) => c.notNull())
      .addColumn('event_type', 'text', (c) => c.notNull())
      .addColumn('payload', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('max_attempts', 'integer', (c) => c.notNull())
      .addColumn('next_attempt_at', 'bigint')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('finished_at', 'bigint')
      .execute();
    await db.schema.createIndex('webhook_deliveries_due').on('webhook_deliveries').columns(['status', 'next_attempt_at']).execute();
    await db.schema.createIndex('webhook_deliveries_log').on('webhook_deliveries').columns(['webhook_id', 'created_at']).execute();
    await db.schema.createIndex('webhook_deliveries_finished').on('webhook_deliveries').column('finished_at').execute();
    await db.schema
      .createTable('webhook_attempts')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('delivery_id', 'text', (c) => c.notNull().references('webhook_deliveries.id').onDelete('cascade'))
      .addColumn('at', 'bigint', (c) => c.notNull())
      .addColumn('duration_ms', 'integer', (c) => c.notNull())
      .addColumn('status_code', 'integer')
      .addColumn('error', 'text')
      .addColumn('answer', 'text')
      .execute();
    await db.schema.createIndex('webhook_attempts_delivery').on('webhook_attempts').columns(['delivery_id', 'at']).execute();
    await db.schema
      .createTable('user_import_jobs')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('actor_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('mode', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('total', 'integer', (c) => c.notNull())
      .addColumn('processed', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('updated', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('unchanged', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('failed', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('problems', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('error', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addColumn('finished_at', 'bigint')
      .execute();
    await db.schema.createIndex('user_import_jobs_created').on('user_import_jobs').column('created_at').execute();
  },
};

/** Who sent a message: the sender's account and the name shown with it (kept as it was when sent,
 *  like a letter's signature). Both null: the console itself sent it (a code, a notice), shown as
 *  "System". */
const messageSender: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('messages').addColumn('sender_id', 'text').execute();
    await db.schema.alterTable('messages').addColumn('sender_name', 'text').execute();
  },
};

/** Passkeys (WebAuthn credentials, server/auth/passkeys/) and their ceremonies' challenges. The
 *  0022 table held only id and user_id (nothing wrote to it: it let the account-security rules ask
 *  whether a person has a passkey before passkeys existed), so it is replaced, not altered: its
 *  credential_id must be unique and SQLite cannot add a unique column to a table. A challenge is a
 *  row, not process memory, so any process of a scaled-out server can finish a ceremony another
 *  one started; deleting the row is what makes it single-use. */
const passkeyCredentials: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.dropTable('passkeys').ifExists().execute();
    await db.schema
      .createTable('passkeys')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('credential_id', 'text', (c) => c.notNull().unique())
      .addColumn('public_key', 'text', (c) => c.notNull())
      .addColumn('counter', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('transports', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('device_type', 'text', (c) => c.notNull())
      .addColumn('backed_up', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('last_used_at', 'bigint')
      .execute();
    await db.schema.createIndex('passkeys_user').on('passkeys').column('user_id').execute();
    await db.schema
      .createTable('webauthn_challenges')
      .addColumn('challenge', 'text', (c) => c.primaryKey())
      .addColumn('purpose', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
      .addColumn('session_id', 'text')
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('webauthn_challenges_expiry').on('webauthn_challenges').column('expires_at').execute();
  },
};

/** Public OpenID Connect clients (single-page and native apps, server/oidc/clients.ts): the client's
 *  type, and a client without a secret. The secret and its time become optional the same way on
 *  both databases: a nullable copy of each column takes its place (SQLite cannot drop NOT NULL). */
const publicClients: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('oidc_clients')
      .addColumn('client_type', 'text', (c) => c.notNull().defaultTo('confidential'))
      .execute();
    for (const [column, type] of [
      ['secret', 'text'],
      ['rotated_at', 'bigint'],
    ] as const) {
      await db.schema.alterTable('oidc_clients').addColumn(`${column}_optional`, type).execute();
      await sql`update oidc_clients set ${sql.ref(`${column}_optional`)} = ${sql.ref(column)}`.execute(db);
      await db.schema.alterTable('oidc_clients').dropColumn(column).execute();
      await db.schema.alterTable('oidc_clients').renameColumn(`${column}_optional`, column).execute();
    }
  },
};

/** Delivery errors as codes the console translates (src/core/schemas/delivery-error.ts): the code
 *  beside the raw detail, for messages and webhook attempts. Older rows keep their English words
 *  in `error` and no code, and are shown as they are. */
const deliveryErrorCodes: Migration = {
  async up(db: Kysely<unknown>) {
    for (const table of ['messages', 'webhook_attempts']) await db.schema.alterTable(table).addColumn('error_code', 'text').execute();
  },
};

/** The console's own notices (server/auth/new-device-notice.ts) keep what they say as facts, so
 *  that each reader gets them in the language they read in (server/services/messages.ts). */
const messageNotice: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('messages').addColumn('notice', 'text').execute();
  },
};

/** Idempotency keys of creates (server/http/idempotency.ts): per caller and key, the request's
 *  fingerprint and the first answer, kept a day so a client retrying after a timeout or a 503 learns
 *  the outcome instead of creating twice (or being told its own username is taken). */
const idempotencyKeys: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('idempotency_keys')
      .addColumn('caller', 'text', (c) => c.notNull())
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('fingerprint', 'text', (c) => c.notNull())
      .addColumn('answer', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('idempotency_keys_pk', ['caller', 'key'])
      .execute();
    await db.schema.createIndex('idempotency_keys_created').on('idempotency_keys').column('created_at').execute();
  },
};

/** The audit log reads like a story (server/audit.ts): each event keeps its target's name as it was
 *  then (`target_name`: "user alice" after alice is deleted), and the events of one bulk action or
 *  import point at that action's own event (`parent_id`). */
const auditStory: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('audit_log').addColumn('target_name', 'text').execute();
    await db.schema.alterTable('audit_log').addColumn('parent_id', 'bigint').execute();
    await db.schema.createIndex('audit_log_parent').on('audit_log').column('parent_id').execute();
  },
};

/** SVG images stored before the paint-bounded allowlist (server/files/svg.ts) are cleaned by it
 *  too, in place (their ids stay, so every field that names one still does): a pattern bomb
 *  uploaded earlier stops costing its viewers. One that the allowlist now refuses as too complex
 *  becomes an empty image. */
const svgPaintBounds: Migration = {
  async up(db: Kysely<unknown>) {
    const { rows } = await sql<{ id: string; data: Uint8Array }>`select id, data from files where kind = 'svg'`.execute(db);
    for (const row of rows) {
      const before = Buffer.from(row.data).toString('utf8');
      const clean = (await sanitizeSvg(before)) ?? '<svg xmlns="http://www.w3.org/2000/svg"></svg>';
      if (clean === before) continue;
      const data = Buffer.from(clean, 'utf8');
      await sql`update files set data = ${data}, size = ${data.length} where id = ${row.id}`.execute(db);
    }
  },
};

/** Whether a webhook attempt's receiver was a private address let through by the operator's
 *  allow-list: its answer (an internal page) is shown to platform administrators only. */
const webhookPrivateAnswers: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('webhook_attempts')
      .addColumn('private_target', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  },
};

/** One username per person whatever its letter case (server/auth/usernames.ts): a unique index on
 *  the lowered username, lowered as the user search lowers (ASCII letters; on PostgreSQL in the C
 *  collation). An existing database may hold case twins (`Admin` and `admin`): refusing to start, or
 *  renaming someone's sign-in name, would lock people out, so they are kept — the oldest of each
 *  lowered name is in the index, the later ones are left out of it by id (a partial index; the ids
 *  are literals, as index predicates take no parameters) — and the server names them at every start
 *  until an administrator settles them. Every new name is checked against all of them. */
function usernameCase(engine: Engine): Migration {
  return {
    async up(db: Kysely<unknown>) {
      const folded = (table: string) =>
        engine === 'postgres' ? sql`lower(${sql.ref(`${table}.username`)} collate "C")` : sql`lower(${sql.ref(`${table}.username`)})`;
      const later = await sql<{ id: string }>`
        select u.id as id from users u where exists (
          select 1 from users o where ${folded('o')} = ${folded('u')}
            and (o.created_at < u.created_at or (o.created_at = u.created_at and o.id < u.id)))`.execute(db);
      const kept = later.rows.length ? sql` where id not in (${sql.join(later.rows.map((row) => sql.lit(row.id)))})` : sql``;
      await sql`create unique index users_username_folded on users (${engine === 'postgres' ? sql`lower(username collate "C")` : sql`lower(username)`})${kept}`.execute(
        db,
      );
    },
  };
}

/** Which process runs an import job (server/process-identity.ts), so that a restarted process
 *  marks the job of its crashed predecessor failed at once (server/services/user-import.ts). */
const importJobRunner: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('user_import_jobs').addColumn('runner', 'text').execute();
  },
};

/** SAML 2.0 (server/saml/): an app registered as a service provider, the identity provider's
 *  signing keys (two published during a rotation), the sign-ins waiting for the person
 *  (pending requests), the message ids already seen (each AuthnRequest and LogoutRequest is used
 *  once) and the sessions each app was given (for Single Logout). */
const samlServiceProviders: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('saml_service_providers')
      .addColumn('app_id', 'text', (c) => c.primaryKey().references('apps.id').onDelete('cascade'))
      .addColumn('entity_id', 'text', (c) => c.notNull().unique())
      .addColumn('acs_urls', 'text', (c) => c.notNull())
      .addColumn('slo_url', 'text')
      .addColumn('slo_binding', 'text')
      .addColumn('name_id_format', 'text', (c) => c.notNull())
      .addColumn('signing_cert', 'text')
      .addColumn('encryption_cert', 'text')
      .addColumn('want_requests_signed', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('sign_response', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('sign_assertion', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('metadata_url', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('saml_idp_keys')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('private_key', 'text', (c) => c.notNull())
      .addColumn('certificate', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('saml_requests')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
      .addColumn('request_id', 'text')
      .addColumn('acs_url', 'text', (c) => c.notNull())
      .addColumn('relay_state', 'text')
      .addColumn('answer', 'text')
      .addColumn('answered_by', 'text')
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('saml_message_ids')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('saml_sessions')
      .addColumn('session_index', 'text', (c) => c.primaryKey())
      .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('name_id', 'text', (c) => c.notNull())
      .addColumn('console_session_id', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('saml_sessions_user').on('saml_sessions').column('user_id').execute();
  },
};

/** Directory connections (server/ldap, docs/ldap.md): one LDAP or Active Directory connection per
 *  tenant, its bind secret kept like the other write-only secrets (never answered); the link of each
 *  person a connection created to its directory entry (its stable id: objectGUID, entryUUID or the
 *  DN); and each synchronisation's report. `claimed_until` lets one process at a time synchronise a
 *  connection. */
const ldapConnections: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('ldap_connections')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('tenant_id', 'text', (c) => c.notNull().unique().references('tenants.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('settings', 'text', (c) => c.notNull())
      .addColumn('bind_secret', 'text', (c) => c.notNull())
      .addColumn('enabled', 'integer', (c) => c.notNull())
      .addColumn('claimed_until', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('last_sync_at', 'bigint')
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('ldap_user_links')
      .addColumn('connection_id', 'text', (c) => c.notNull().references('ldap_connections.id').onDelete('cascade'))
      .addColumn('user_id', 'text', (c) => c.notNull().unique().references('users.id').onDelete('cascade'))
      .addColumn('external_id', 'text', (c) => c.notNull())
      .addColumn('dn', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('ldap_user_links_pk', ['connection_id', 'external_id'])
      .execute();
    await db.schema
      .createTable('ldap_sync_reports')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('connection_id', 'text', (c) => c.notNull().references('ldap_connections.id').onDelete('cascade'))
      .addColumn('trigger', 'text', (c) => c.notNull())
      .addColumn('started_at', 'bigint', (c) => c.notNull())
      .addColumn('finished_at', 'bigint', (c) => c.notNull())
      .addColumn('outcome', 'text', (c) => c.notNull())
      .addColumn('summary', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('ldap_sync_reports_connection').on('ldap_sync_reports').columns(['connection_id', 'started_at']).execute();
  },
};

/** SAML Single Logout to the apps, encrypted assertions and remembered consent (server/saml/):
 *  the LogoutRequests to post to apps over the SOAP back-channel (queued when a person's session
 *  ends, sent and retried by the outbox), the front-channel logouts a browser sign-out goes through
 *  one app after the other (grouped by chain), the algorithm an app's assertions are encrypted with,
 *  and the consent a person gave an app (with a fingerprint of what the app is told). */
const samlLogoutAndConsent: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('saml_logout_deliveries')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('name_id', 'text', (c) => c.notNull())
      .addColumn('session_index', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('next_attempt_at', 'bigint')
      .addColumn('error', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('saml_front_logouts')
      .addColumn('chain_id', 'text', (c) => c.notNull())
      .addColumn('session_index', 'text', (c) => c.notNull())
      .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('name_id', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('saml_front_logouts_pk', ['chain_id', 'session_index'])
      .execute();
    await db.schema.alterTable('saml_service_providers').addColumn('assertion_encryption', 'text').execute();
    await db.schema
      .createTable('saml_consents')
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
      .addColumn('fingerprint', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('saml_consents_pk', ['user_id', 'app_id'])
      .execute();
  },
};

/** SAML sign-in requests that ask for a fresh sign-in (ForceAuthn, server/saml/sign-in.ts): the
 *  moment the app asked; only a console sign-in at or after it answers the request. */
const samlFreshSignIn: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('saml_requests').addColumn('fresh_after', 'bigint').execute();
  },
};

/** Only a provider session or an interaction has a uid: the tokens (most of the rows, two new ones
 *  per refresh grant) left a NULL entry in oidc_payloads_uid with each write. The index now holds
 *  the rows that have one; a lookup by uid (`uid = ?`, or the token's session joined by
 *  server/oidc/read-ahead.ts) implies uid is not null, so both engines still answer it from the
 *  index (test/server/perf-statements.test.ts). A token write touches one index fewer. */
const oidcUidPartialIndex: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.dropIndex('oidc_payloads_uid').execute();
    await db.schema.createIndex('oidc_payloads_uid').on('oidc_payloads').column('uid').where(sql.ref('uid'), 'is not', null).execute();
  },
};

/** Whether a directory connection is asked at first sign-ins (server/ldap/lookup.ts): the platform
 *  administrator's choice. Existing connections are not: a connection a tenant administrator
 *  pointed at a directory of their own would otherwise keep receiving other tenants' people's
 *  passwords; their people are still created by their tenant's synchronisations. */
const ldapFirstSignIn: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('ldap_connections')
      .addColumn('first_sign_in', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  },
};

/** The `type` a SCIM client gave a person's one e-mail and one phone ("work", "other", "mobile",
 *  …), answered back under it so that its filtered paths (`emails[type eq "other"].value`) name the
 *  value held (server/scim/user-contacts.ts). None: the defaults, "work" and "mobile". Per person,
 *  not per client: it describes the one value every client reads. */
const scimContactTypes: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('scim_contact_types')
      .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
      .addColumn('email_type', 'text')
      .addColumn('phone_type', 'text')
      .execute();
  },
};

/** The SCIM attributes of a person that no console field holds (name.givenName, title, addresses,
 *  the enterprise extension's department, …), as the JSON object a client last wrote, answered back
 *  beside the mapped ones (server/scim/user-attributes.ts). Per person, like their contact types. */
const scimUserAttributes: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('scim_user_attributes')
      .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
      .addColumn('attributes', 'text', (c) => c.notNull())
      .execute();
  },
};

/** Whether an app's assertions are encrypted is its administrator's choice (`encrypt_assertions`,
 *  off for a new app): before, any encryption certificate did it, one read from the app's metadata
 *  included. Apps already registered with a certificate keep what they got. */
const samlEncryptAssertions: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('saml_service_providers')
      .addColumn('encrypt_assertions', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await sql`update saml_service_providers set encrypt_assertions = 1 where encryption_cert is not null`.execute(db);
  },
};

/** An event that moves its target to another tenant (a person moved) names the tenant it left
 *  (`former_tenant_id`): the administrators of both read it (server/services/audit-log.ts). */
const auditFormerTenant: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('audit_log').addColumn('former_tenant_id', 'text').execute();
    await db.schema.createIndex('audit_log_former_tenant_id').on('audit_log').column('former_tenant_id').execute();
  },
};

/** The NameID format an app's AuthnRequest asks for (its NameIDPolicy, server/saml/name-id.ts),
 *  kept with the pending sign-in, and the format each session was given (a transient NameID is new
 *  for each assertion), carried to the LogoutRequests that end it. Null: the app's setting, as
 *  before. */
const samlNameIdPolicy: Migration = {
  async up(db: Kysely<unknown>) {
    for (const table of ['saml_requests', 'saml_sessions', 'saml_logout_deliveries', 'saml_front_logouts'])
      await db.schema.alterTable(table).addColumn('name_id_format', 'text').execute();
  },
};

/** Sign-in names as Windows people type them (server/ldap/sign-in-name.ts): each directory link
 *  keeps its entry's principal name (userPrincipalName, lower case; filled by the next
 *  synchronisation or sign-in), and the stored connections get the two new settings: no NetBIOS
 *  domain, and the principal name attribute of their preset (userPrincipalName for Active
 *  Directory's, none for OpenLDAP's). */
const ldapPrincipalNames: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('ldap_user_links')
      .addColumn('principal_name', 'text', (c) => c.notNull().defaultTo(''))
      .execute();
    await db.schema.createIndex('ldap_user_links_principal_name').on('ldap_user_links').column('principal_name').execute();
    const rows = await sql<{ id: string; settings: string }>`select id, settings from ldap_connections`.execute(db);
    for (const row of rows.rows) {
      const settings = JSON.parse(row.settings) as { preset?: string; netbiosDomain?: string; mapping?: Record<string, string> };
      const principalName = settings.preset === 'activeDirectory' ? 'userPrincipalName' : '';
      const upgraded = { ...settings, netbiosDomain: settings.netbiosDomain ?? '', mapping: { principalName, ...settings.mapping } };
      await sql`update ldap_connections set settings = ${JSON.stringify(upgraded)} where id = ${row.id}`.execute(db);
    }
  },
};

/** Every migration of this server, by name. */
function migrationsOf(engine: Engine): Record<string, Migration> {
  return {
    '0001_initial': initial(engine),
    '0002_idp_links': idpLinks,
    '0003_message_delivery': messageDelivery,
    '0004_oidc_provider': oidcProvider,
    '0005_idp_flows': idpFlows,
    '0006_totp_and_codes': totpAndCodes,
    '0007_user_search_indexes': userSearchIndexes(engine),
    '0008_password_history': passwordHistory,
    '0009_user_search_index_only': userSearchIndexOnly(engine),
    '0010_atomic_counters': atomicCounters,
    '0011_unique_contacts': uniqueContacts,
    '0015_idp_flow_binding': idpFlowBinding,
    '0016_shared_limits': sharedLimits,
    '0017_sso': sso(engine),
    '0018_sso_apps': ssoApps,
    '0019_backchannel_logout': backchannelLogout,
    '0023_scim': scim,
    '0022_passkeys': passkeysPlaceholder,
    '0026_account_security': accountSecurity,
    '0024_webhooks_and_imports': webhooksAndImports,
    '0021_message_sender': messageSender,
    '0025_passkey_credentials': passkeyCredentials,
    '0027_sso_public_clients': publicClients,
    '0029_delivery_error_codes': deliveryErrorCodes,
    '0036_message_notice': messageNotice,
    '0030_idempotency_keys': idempotencyKeys,
    '0030_audit_story': auditStory,
    '0035_svg_paint_bounds': svgPaintBounds,
    '0035_webhook_private_answers': webhookPrivateAnswers,
    '0032_username_case': usernameCase(engine),
    '0034_import_job_runner': importJobRunner,
    '0040_saml_service_providers': samlServiceProviders,
    '0041_ldap_connections': ldapConnections,
    '0042_saml_logout_and_consent': samlLogoutAndConsent,
    '0045_samlidp_fresh_sign_in': samlFreshSignIn,
    '0047_perf33d_oidc_uid_partial': oidcUidPartialIndex,
    '0048_fixldap2_ldap_first_sign_in': ldapFirstSignIn,
    '0049_scim_contact_types': scimContactTypes,
    '0050_scim_user_attributes': scimUserAttributes,
    '0051_saml_encrypt_assertions': samlEncryptAssertions,
    '0052_audit_former_tenant': auditFormerTenant,
    '0053_saml_name_id_policy': samlNameIdPolicy,
    '0054_ldap_principal_names': ldapPrincipalNames,
  };
}

function migrator(db: Kysely<unknown>, engine: Engine): Migrator {
  return new Migrator({
    db,
    // Each migration stands alone (none needs a later one), so one missing from a database that
    // already ran later ones (work that landed in another order, a restored older table) is
    // simply run, instead of the server refusing to start.
    allowUnorderedMigrations: true,
    provider: { getMigrations: async () => migrationsOf(engine) },
  });
}

/**
 * The database was migrated by a newer server: it ran migrations this one does not know. Running
 * on it would read and write a schema this code was not written for (a downgrade), so the start
 * stops instead, naming them (server/start-failure.ts prints the message as it is).
 */
export class NewerDatabaseError extends Error {
  constructor(readonly unknown: string[]) {
    super(
      `the database was upgraded by a newer iam-console-server: it ran migrations this version does not know (${unknown.join(', ')}). ` +
        'Start the newer version again, or restore the backup taken before the upgrade (docs/deployment.md, "Upgrades")',
    );
    this.name = 'NewerDatabaseError';
  }
}

/** Brings the schema up to date; safe to run from several processes at once (Kysely's lock).
 *  Refuses a database a newer server migrated (NewerDatabaseError). */
export async function migrate(db: Kysely<unknown>, engine: Engine): Promise<void> {
  // Undefined on a new database (no migration table yet).
  const executed = await executedMigrations(db).catch(() => undefined);
  const known = migrationsOf(engine);
  const unknown = executed?.filter((name) => !(name in known)) ?? [];
  if (unknown.length) throw new NewerDatabaseError(unknown);
  // Nothing to run (every start but the first after an upgrade): Kysely's migrator is skipped, which
  // reads the whole schema first.
  if (executed && Object.keys(known).every((name) => executed.includes(name))) return;
  const { error, results } = await migrator(db, engine).migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    throw new Error(`database migration ${failed?.migrationName ?? ''} failed: ${String(error)}`, { cause: error });
  }
}

async function executedMigrations(db: Kysely<unknown>): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select name from ${sql.table(DEFAULT_MIGRATION_TABLE)}`.execute(db);
  return rows.map((row) => row.name);
}

/** The names of this server's migrations the database has not run (the readiness check). */
export async function pendingMigrations(db: Kysely<unknown>, engine: Engine): Promise<string[]> {
  const executed = new Set(await executedMigrations(db));
  return Object.keys(migrationsOf(engine)).filter((name) => !executed.has(name));
}

/** The user search (server/db/search.ts) is a prefix range on lower(column): one index per
 *  searchable column, built the way the search lowers (on PostgreSQL in the C collation). With
 *  created_at and id in it, the default order (newest first) of a page of matches and the count
 *  are read from the index alone. */
function userSearchIndexes(engine: Engine): Migration {
  return {
    async up(db: Kysely<unknown>) {
      for (const column of ['username', 'real_name', 'email', 'mobile_phone']) {
        const lowered = engine === 'postgres' ? sql`lower(${sql.ref(column)} collate "C")` : sql`lower(${sql.ref(column)})`;
        await db.schema
          .createIndex(`users_lower_${column}`)
          .on('users')
          .expression(sql`${lowered}, created_at, id`)
          .execute();
      }
    },
  };
}

/** Earlier password hashes (server/auth/password-policy.ts: the policy's history refuses their
 *  reuse), and when a one-time code was used (a used verification link is told apart from an
 *  expired one). */
const passwordHistory: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('password_history')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('password_hash', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('password_history_user').on('password_history').columns(['user_id', 'created_at']).execute();
    await db.schema.alterTable('one_time_codes').addColumn('used_at', 'bigint').execute();
  },
};

/** PostgreSQL cannot answer a condition on lower(column) from the index alone unless the column
 *  itself is in the index (its planner wants the column to compute the expression): the search's
 *  count then read a whole other index (100 000 entries) instead of the matching range. The
 *  column is INCLUDEd now. SQLite answers these from the 0007 indexes already. */
function userSearchIndexOnly(engine: Engine): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (engine !== 'postgres') return;
      for (const column of ['username', 'real_name', 'email', 'mobile_phone']) {
        const name = sql.ref(`users_lower_${column}`);
        await sql`drop index ${name}`.execute(db);
        await sql`create index ${name} on users (lower(${sql.ref(column)} collate "C"), created_at, id) include (${sql.ref(column)})`.execute(db);
      }
    },
  };
}

/** Counters taken in one statement before what they count: wrong authenticator codes per person
 *  and window (server/auth/totp.ts), codes sent per person and purpose (server/auth/codes.ts). */
const atomicCounters: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('code_sends')
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('purpose', 'text', (c) => c.notNull())
      .addColumn('last_sent_at', 'bigint', (c) => c.notNull())
      .addColumn('hour_started_at', 'bigint', (c) => c.notNull())
      .addColumn('sent_this_hour', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('code_sends_pk', ['user_id', 'purpose'])
      .execute();
    await db.schema
      .alterTable('user_totp')
      .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .alterTable('user_totp')
      .addColumn('failures_since', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
  },
};

/** One e-mail address (in any letter case) and one mobile phone per account, in the database so
 *  that two parallel writes cannot both take one (server/auth/contacts.ts), and the address each
 *  one-time code was sent to (a contact change applies the address its code reached).
 *  An existing database may already hold duplicates (the squatting this closes). Refusing to
 *  start would leave an upgraded identity service down until someone edits rows by hand, so the
 *  OLDEST account keeps the address (the squatter came later), each later account's copy is
 *  cleared, and every clearing is written to the audit log with the address, so an administrator
 *  can see and settle it. NULL and '' stay allowed for any number of accounts. */
const uniqueContacts: Migration = {
  async up(db: Kysely<unknown>) {
    const now = Date.now();
    for (const [column, key, index] of [
      ['email', 'lower(email)', 'users_email_unique'],
      ['mobile_phone', 'mobile_phone', 'users_mobile_phone_unique'],
    ] as const) {
      const later = await sql<{ id: string; tenant: string | null; value: string }>`
        select u.id as id, u.tenant_id as tenant, u.${sql.ref(column)} as value from users u
        where u.${sql.ref(column)} <> '' and exists (
          select 1 from users o where o.${sql.ref(column)} <> '' and ${sql.raw(key.replace(column, `o.${column}`))} = ${sql.raw(key.replace(column, `u.${column}`))}
            and (o.created_at < u.created_at or (o.created_at = u.created_at and o.id < u.id)))`.execute(db);
      for (const row of later.rows) {
        await sql`update users set ${sql.ref(column)} = null, version = version + 1, updated_at = ${now} where id = ${row.id}`.execute(db);
        await sql`insert into audit_log (at, actor_id, actor_name, action, target_type, target_id, tenant_id, ip, success, detail)
          values (${now}, null, 'migration 0011_unique_contacts', 'user.update', 'user', ${row.id}, ${row.tenant}, null, 1, ${JSON.stringify({ cleared: column, value: row.value, reason: 'another account had it first' })})`.execute(
          db,
        );
      }
      await sql`create unique index ${sql.ref(index)} on users (${sql.raw(key)}) where ${sql.ref(column)} <> ''`.execute(db);
    }
    await db.schema.alterTable('one_time_codes').addColumn('sent_to', 'text').execute();
  },
};

/** SCIM provisioning (server/scim, docs/scim.md): the bearer tokens of each tenant (stored as the
 *  SHA-256 of the secret, revoked by a stamp so the list still shows them), and the externalId a
 *  tenant's provisioning client gave a user or a group (a sub-tenant) — one per client's tenant,
 *  removed with the user or the group. */
const scim: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('scim_tokens')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('secret_hash', 'text', (c) => c.notNull().unique())
      .addColumn('created_by', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('last_used_at', 'bigint')
      .addColumn('revoked_at', 'bigint')
      .execute();
    await db.schema.createIndex('scim_tokens_tenant').on('scim_tokens').column('tenant_id').execute();
    for (const [table, column, target] of [
      ['scim_user_links', 'user_id', 'users.id'],
      ['scim_group_links', 'group_id', 'tenants.id'],
    ] as const) {
      await db.schema
        .createTable(table)
        .addColumn('scope_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
        .addColumn(column, 'text', (c) => c.notNull().references(target).onDelete('cascade'))
        .addColumn('external_id', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint(`${table}_pk`, ['scope_id', column])
        .execute();
      await db.schema.createIndex(`${table}_external`).on(table).columns(['scope_id', 'external_id']).execute();
    }
  },
};
