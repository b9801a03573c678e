// SCIM Users (RFC 7643 §4.1) over our users. A token reaches the tenant users of its tenant's
// subtree (server/auth/scope.ts); it creates users in its own tenant. Writes go through the
// console's services (server/services/users.ts) with the console's rules (userCreateBody,
// userUpdateBody of src/core/schemas/users.ts) and audit. The mapping (docs/scim.md):
//   userName ↔ username (never changes once created, as in the console)
//   name.formatted (else displayName, else givenName familyName) ↔ realName
//   emails (the primary, else the first) ↔ email;  phoneNumbers (mobile, else primary, else first) ↔ mobilePhone
//   active ↔ enabled / disabled;  externalId ↔ kept per token's tenant;  groups ← the user's tenant when it is a group
//   password: on create only (else a random one: the person signs in through SSO or resets it)
// Other attributes are accepted and not kept.
import SCIMMY from 'scimmy';
import { createHash } from 'node:crypto';
import type { Ctx } from '../context';
import { Status } from '../../src/core/enums';
import { rules } from '../../src/core/validation';
import { userCreateBody, userUpdateBody } from '../../src/core/schemas/users';
import { withFieldRules } from '../field-rules-scope';
import type { UserRow } from '../auth/actor';
import { scopeUsers } from '../auth/scope';
import { lockUsers } from '../db/named-lock';
import { newSecret } from '../auth/secrets';
import { hashPassword } from '../auth/kdf';
import * as users from '../services/users';
import type { ScimCaller } from './caller';
import { ScimError, scimNotFound } from './errors';
import { filterCondition, type FilterAttributes } from './filter';
import { listResponse, pageOf, type ReadQuery } from './listing';
import { applyPatch } from './patch';
import { checked, externalIdOf, incoming, isoTime, locationOf, present, setExternalId } from './resource';

type ScimUser = InstanceType<typeof SCIMMY.Schemas.User>;
type Row = UserRow & { externalId: string | null; tenantName: string | null };

const FILTERS: FilterAttributes = {
  id: { kind: 'text', column: 'users.id', caseExact: true },
  username: { kind: 'text', column: 'users.username' },
  externalid: { kind: 'text', column: 'scimUserLinks.externalId', caseExact: true },
  displayname: { kind: 'text', column: 'users.realName' },
  'name.formatted': { kind: 'text', column: 'users.realName' },
  emails: { kind: 'text', column: 'users.email' },
  'emails.value': { kind: 'text', column: 'users.email' },
  'emails.type': { kind: 'tag', column: 'users.email', tag: 'work' },
  phonenumbers: { kind: 'text', column: 'users.mobilePhone' },
  'phonenumbers.value': { kind: 'text', column: 'users.mobilePhone' },
  'phonenumbers.type': { kind: 'tag', column: 'users.mobilePhone', tag: 'mobile' },
  active: { kind: 'flag', column: 'users.availabilityStatus', trueValue: Status.Enable },
  'meta.created': { kind: 'time', column: 'users.createdAt' },
  'meta.lastmodified': { kind: 'time', column: 'users.updatedAt' },
};

/** The users a caller reaches, with the externalId its client gave them and their tenant's name. */
function reachable(ctx: Ctx, caller: ScimCaller) {
  return scopeUsers(caller.actor, ctx.db.selectFrom('users').selectAll('users'))
    .leftJoin('scimUserLinks', (join) => join.onRef('scimUserLinks.userId', '=', 'users.id').on('scimUserLinks.scopeId', '=', caller.tenantId))
    .leftJoin('tenants', 'tenants.id', 'users.tenantId')
    .select(['scimUserLinks.externalId', 'tenants.name as tenantName']);
}

function scimUserOf(ctx: Ctx, caller: ScimCaller, row: Row) {
  const inGroup = row.tenantId !== null && row.tenantId !== caller.tenantId;
  return {
    id: row.id,
    userName: row.username,
    ...(row.externalId ? { externalId: row.externalId } : {}),
    name: { formatted: row.realName },
    displayName: row.realName,
    active: row.availabilityStatus === Status.Enable,
    ...(row.email ? { emails: [{ value: row.email, type: 'work', primary: true }] } : {}),
    ...(row.mobilePhone ? { phoneNumbers: [{ value: row.mobilePhone, type: 'mobile', primary: true }] } : {}),
    ...(inGroup ? { groups: [{ value: row.tenantId, display: row.tenantName ?? '', $ref: `${locationOf(ctx, '/Groups')}/${row.tenantId}` }] } : {}),
    meta: { resourceType: 'User', created: isoTime(row.createdAt), lastModified: isoTime(row.updatedAt) },
  };
}

async function rowOf(ctx: Ctx, caller: ScimCaller, id: string): Promise<Row> {
  const row = await reachable(ctx, caller).where('users.id', '=', id).executeTakeFirst();
  if (!row) throw scimNotFound('User', id);
  return row;
}

const answer = (ctx: Ctx, caller: ScimCaller, row: Row, projection?: ReadQuery['projection']) =>
  present(SCIMMY.Schemas.User, scimUserOf(ctx, caller, row), locationOf(ctx, '/Users'), projection);

type Valued = { value?: unknown; type?: unknown; primary?: unknown };
/** The value of a multi-valued attribute we hold one of: of `type`, else the primary, else the first. */
function single(values: Valued[] | undefined, type?: string): string {
  const list = values ?? [];
  const chosen = (type ? list.find((entry) => entry.type === type) : undefined) ?? list.find((entry) => entry.primary === true) ?? list[0];
  return typeof chosen?.value === 'string' ? chosen.value : '';
}

/** A phone number as the console keeps it, without separators: a mainland one without its country
 *  code ("+86 138-0000-0000" → "13800000000"), another in E.164 ("+44 20 7946 0958" →
 *  "+442079460958", so that the stored number sent back formatted is no change); anything else is
 *  left for the field rule to refuse. */
function mobilePhoneOf(value: string): string {
  const digits = value.replace(/[\s().-]/g, '').replace(/^(?:\+|00)86/, '');
  return /^\+?\d+$/.test(digits) ? digits : value;
}

/** The real name of a SCIM user: name.formatted, else displayName, else "givenName familyName".
 *  Over a stored user (its real name `stored`), the first of name.formatted and displayName that
 *  differs from it wins: we answer both with the real name, so a PATCH replacing displayName alone
 *  (Entra ID's default mapping) leaves the old name in name.formatted, which would otherwise win. */
function realNameOf(user: ScimUser, stored?: string): string {
  const given = [user.name?.givenName, user.name?.familyName].filter(Boolean).join(' ');
  const names = [user.name?.formatted, user.displayName];
  const changed = stored === undefined ? undefined : names.find((name) => name && name !== stored);
  return changed ?? user.name?.formatted ?? user.displayName ?? given;
}

/** Our fields of a SCIM user (over a stored one with the real name `storedName`, see realNameOf). */
function fieldsOf(user: ScimUser, storedName?: string) {
  return {
    username: user.userName,
    realName: realNameOf(user, storedName),
    email: single(user.emails),
    mobilePhone: mobilePhoneOf(single(user.phoneNumbers, 'mobile')),
    /** Left out (a PUT without `active`): unchanged, see writeUser. */
    availabilityStatus: user.active === undefined ? undefined : user.active ? Status.Enable : Status.Disabled,
  };
}

/** What the console's browsers send for a password (SHA-256 hex, src/core/password-transform.ts). */
const transformed = (plain: string) => createHash('sha256').update(plain).digest('hex');

/** A password a client sends in plain text, checked by the console's rule; none: a random one. */
function initialPassword(plain: unknown): string {
  if (plain === undefined) return transformed(newSecret());
  const password = typeof plain === 'string' ? plain.trim() : plain;
  return transformed(checked(rules.newPassword, password));
}

export async function listUsers(ctx: Ctx, caller: ScimCaller, query: ReadQuery) {
  let select = reachable(ctx, caller);
  if (query.filter) select = select.where(filterCondition(query.filter, FILTERS));
  const { rows, total } = await pageOf<Row>(select, ['users.createdAt', 'users.id'], query);
  return listResponse(
    rows.map((row) => answer(ctx, caller, row, query.projection)),
    total,
    query.startIndex,
  );
}

export async function getUser(ctx: Ctx, caller: ScimCaller, id: string, query: ReadQuery) {
  return answer(ctx, caller, await rowOf(ctx, caller, id), query.projection);
}

export async function createUser(ctx: Ctx, caller: ScimCaller, body: unknown, query: ReadQuery) {
  const user = incoming(SCIMMY.Schemas.User, body);
  const externalId = externalIdOf(user);
  const fields = fieldsOf(user);
  const password = (user as { password?: unknown }).password;
  const input = await withFieldRules(ctx, () =>
    checked(userCreateBody, {
      ...fields,
      availabilityStatus: fields.availabilityStatus ?? Status.Enable,
      tenantId: caller.tenantId,
      password: initialPassword(password),
    }),
  );
  // The password is hashed before the change: its transaction holds SQLite's write lock.
  const passwordHash = await hashPassword(input.password);
  const created = await ctx.audit.change(async () => {
    const user = await users.createUser(ctx, caller.actor, input, caller.ip, { passwordHash });
    await setExternalId(ctx, caller, 'user', user.id, externalId);
    return user;
  });
  return answer(ctx, caller, await rowOf(ctx, caller, created.id), query.projection);
}

/**
 * Writes a whole user (PUT, or the result of a PATCH: `wanted` makes it from the stored user) over
 * the user `id`: one change, its records with it; answers the user as the change left it. SCIM
 * sends no version (no ETags: discovery.ts), so the stored user is read in the change with its row
 * locked: writes of one user run one after the other, each over what the one before wrote (a PATCH
 * of one attribute keeps the others'), never refused for a version the client did not send.
 */
function writeUser(ctx: Ctx, caller: ScimCaller, id: string, wanted: (current: Row) => ScimUser | Promise<ScimUser>): Promise<Row> {
  return ctx.audit.change(async () => {
    await lockUsers(ctx, (eb) => eb('id', '=', id));
    const current = await rowOf(ctx, caller, id);
    await writeFields(ctx, caller, current, await wanted(current));
    return rowOf(ctx, caller, id);
  });
}

async function writeFields(ctx: Ctx, caller: ScimCaller, current: UserRow, user: ScimUser): Promise<void> {
  const externalId = externalIdOf(user);
  const fields = fieldsOf(user, current.realName);
  if (typeof fields.username !== 'string' || fields.username.toLowerCase() !== current.username.toLowerCase()) {
    throw new ScimError(400, 'mutability', 'userName does not change once the user exists (as in the console)');
  }
  if ((user as { password?: unknown }).password !== undefined) {
    throw new ScimError(400, 'mutability', 'password is set only when the user is created (changePassword is not supported)');
  }
  // A PUT replaces what it carries (RFC 7644 §3.5.1: a left-out e-mail is cleared), but a left-out
  // `active` keeps the person's state: clients that do not map it must not re-enable someone disabled.
  const changes = {
    realName: fields.realName,
    email: fields.email,
    mobilePhone: fields.mobilePhone,
    availabilityStatus: fields.availabilityStatus ?? current.availabilityStatus,
  };
  const stored = {
    realName: current.realName,
    email: current.email ?? '',
    mobilePhone: current.mobilePhone ?? '',
    availabilityStatus: current.availabilityStatus,
  };
  if (JSON.stringify(changes) !== JSON.stringify(stored)) {
    // Only the fields that change are checked by the field rules in force (users.updateUser): a
    // person stored under other rules can still be disabled.
    await withFieldRules(ctx, () =>
      users.updateUser(ctx, caller.actor, current.id, checked(userUpdateBody, { ...changes, version: current.version }), caller.ip),
    );
  }
  await setExternalId(ctx, caller, 'user', current.id, externalId);
}

export async function replaceUser(ctx: Ctx, caller: ScimCaller, id: string, body: unknown, query: ReadQuery) {
  const replaced = await writeUser(ctx, caller, id, () => incoming(SCIMMY.Schemas.User, body));
  return answer(ctx, caller, replaced, query.projection);
}

export async function patchUser(ctx: Ctx, caller: ScimCaller, id: string, body: unknown, query: ReadQuery) {
  const patched = await writeUser(ctx, caller, id, (current) =>
    applyPatch(body, new SCIMMY.Schemas.User(scimUserOf(ctx, caller, current), 'out', locationOf(ctx, '/Users'))),
  );
  return answer(ctx, caller, patched, query.projection);
}

export async function deleteUser(ctx: Ctx, caller: ScimCaller, id: string): Promise<void> {
  await users.deleteUser(ctx, caller.actor, (await rowOf(ctx, caller, id)).id, caller.ip);
}
