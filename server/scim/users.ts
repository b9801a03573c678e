// SCIM Users (RFC 7643 §4.1) over our users. A token reaches the tenant users of its tenant's
// subtree (server/auth/scope.ts); it creates users in its own tenant. Writes go through the
// console's services (server/services/users.ts) with the console's rules (userCreateBody,
// userUpdateBody of src/core/schemas/users.ts) and audit. The mapping (docs/scim.md):
//   userName ↔ username (never changes once created, as in the console)
//   name.formatted (else displayName, else givenName familyName) ↔ realName
//   emails ↔ email;  phoneNumbers ↔ mobilePhone: the primary (else work e-mail, mobile phone), under
//     the type given (a phone number only when the console's field rule takes it); the others kept
//     beside it as sent (server/scim/user-contacts.ts)
//   active ↔ enabled / disabled;  externalId ↔ kept per token's tenant;  groups ← the user's tenant when it is a group
//   password: on create only (else a random one: the person signs in through SSO or resets it)
// The schema's other attributes (name.givenName, title, addresses, the enterprise extension, …) are
// kept as the client wrote them (server/scim/user-attributes.ts).
import SCIMMY from 'scimmy';
import { createHash } from 'node:crypto';
import type { Ctx } from '../context';
import { Status } from '../../src/core/enums';
import { rules } from '../../src/core/validation';
import { userCreateBody, userUpdateBody } from '../../src/core/schemas/users';
import * as v from 'valibot';
import { fieldRules, type FieldRulesMode } from '../../src/core/validation/field-rules';
import { fieldRulesOf, withFieldRules } from '../field-rules-scope';
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
import { answeredContacts, besideOf, CONTACT_TYPE_FILTERS, contactsOf, keepContactTypes, keptBeside, mobilePhoneOf } from './user-contacts';
import { keepAttributes, storedAttributes, unmappedAttributes } from './user-attributes';
import { usernameTaken } from '../auth/usernames';
import { fieldError } from '../http/errors';

type ScimUser = InstanceType<typeof SCIMMY.Schemas.User>;
type Row = UserRow & {
  externalId: string | null;
  tenantName: string | null;
  emailType: string | null;
  phoneType: string | null;
  /** The SCIM attributes no console field holds, a JSON object (null: none). */
  attributes: string | null;
};

const FILTERS: FilterAttributes = {
  id: { kind: 'text', column: 'users.id', caseExact: true },
  username: { kind: 'text', column: 'users.username' },
  externalid: { kind: 'text', column: 'scimUserLinks.externalId', caseExact: true },
  displayname: { kind: 'text', column: 'users.realName' },
  'name.formatted': { kind: 'text', column: 'users.realName' },
  emails: { kind: 'text', column: 'users.email' },
  'emails.value': { kind: 'text', column: 'users.email' },
  phonenumbers: { kind: 'text', column: 'users.mobilePhone' },
  'phonenumbers.value': { kind: 'text', column: 'users.mobilePhone' },
  active: { kind: 'flag', column: 'users.availabilityStatus', trueValue: Status.Enable },
  'meta.created': { kind: 'time', column: 'users.createdAt' },
  'meta.lastmodified': { kind: 'time', column: 'users.updatedAt' },
  ...CONTACT_TYPE_FILTERS,
};

/** The users a caller reaches, with the externalId its client gave them, the types of their e-mail
 *  and phone, their other SCIM attributes, and their tenant's name. */
function reachable(ctx: Ctx, caller: ScimCaller) {
  return scopeUsers(caller.actor, ctx.db.selectFrom('users').selectAll('users'))
    .leftJoin('scimUserLinks', (join) => join.onRef('scimUserLinks.userId', '=', 'users.id').on('scimUserLinks.scopeId', '=', caller.tenantId))
    .leftJoin('tenants', 'tenants.id', 'users.tenantId')
    .leftJoin('scimContactTypes', 'scimContactTypes.userId', 'users.id')
    .leftJoin('scimUserAttributes', 'scimUserAttributes.userId', 'users.id')
    .select([
      'scimUserLinks.externalId',
      'tenants.name as tenantName',
      'scimContactTypes.emailType',
      'scimContactTypes.phoneType',
      'scimUserAttributes.attributes',
    ]);
}

function scimUserOf(ctx: Ctx, caller: ScimCaller, row: Row) {
  const inGroup = row.tenantId !== null && row.tenantId !== caller.tenantId;
  const { emails, phoneNumbers, rest: attributes } = besideOf(storedAttributes(row.attributes));
  return {
    ...attributes,
    id: row.id,
    userName: row.username,
    ...(row.externalId ? { externalId: row.externalId } : {}),
    name: { ...(attributes.name as object | undefined), formatted: row.realName },
    displayName: row.realName,
    active: row.availabilityStatus === Status.Enable,
    emails: answeredContacts('emails', row.email, row.emailType, emails),
    phoneNumbers: answeredContacts('phoneNumbers', row.mobilePhone, row.phoneType, phoneNumbers),
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

/** A stored person as a write starts from: their fields, and their name's parts as last written. */
type Stored = { row: UserRow; parts: (string | undefined)[] };

const joined = (parts: (string | undefined)[]) => parts.filter(Boolean).join(' ');

/** The real name of a SCIM user: name.formatted, else displayName, else "givenName familyName".
 *  Over a stored user, the first of name.formatted and displayName that differs from the real name
 *  wins: we answer both with the real name, so a PATCH replacing displayName alone (Entra ID's
 *  default mapping) leaves the old name in name.formatted, which would otherwise win. Else, after a
 *  PATCH (`patched`) that changed givenName or familyName (a mapping without name.formatted), the
 *  new "givenName familyName" when both parts changed or the real name was made of the old parts;
 *  a real name of its own (Entra ID's documented sample replaces familyName alone beside a
 *  formatted name of another form) stays. */
function realNameOf(user: ScimUser, stored?: Stored, patched = false): string {
  const parts = [user.name?.givenName, user.name?.familyName];
  const names = [user.name?.formatted, user.displayName];
  const changed = stored && names.find((name) => name && name !== stored.row.realName);
  if (changed) return changed;
  if (patched && stored && parts.every(Boolean)) {
    const moved = parts.map((part, at) => part !== stored.parts[at]);
    if (moved.every(Boolean) || (moved.some(Boolean) && stored.row.realName === joined(stored.parts))) return joined(parts);
  }
  return user.name?.formatted ?? user.displayName ?? joined(parts);
}

/** The name parts a stored person's attributes hold. */
function storedParts(row: Row): (string | undefined)[] {
  const name = storedAttributes(row.attributes).name as { givenName?: string; familyName?: string } | undefined;
  return [name?.givenName, name?.familyName];
}

/** Our fields of a SCIM user; over a stored one (`current`), and whether they are the result of a
 *  PATCH of it (see realNameOf and contactsOf). `attributes`: the SCIM attributes no console field
 *  holds, with the e-mails and phone numbers kept beside the console's. */
function fieldsOf(user: ScimUser, rulesMode: FieldRulesMode, current?: Row, patched = false) {
  const emails = contactsOf('emails', user.emails, patched ? (current?.email ?? undefined) : undefined);
  // The number held now stays held (the rules check only what a request changes).
  const phoneFits = (value: string) => mobilePhoneOf(value) === current?.mobilePhone || v.is(fieldRules(rulesMode).mobilePhone, mobilePhoneOf(value));
  const phones = contactsOf('phoneNumbers', user.phoneNumbers, patched ? (current?.mobilePhone ?? undefined) : undefined, phoneFits);
  const [email, phone] = [emails.held, phones.held];
  return {
    attributes: { ...unmappedAttributes(user), ...keptBeside(emails, phones) },
    username: user.userName,
    realName: realNameOf(user, current && { row: current, parts: storedParts(current) }, patched),
    email: email?.value ?? '',
    mobilePhone: mobilePhoneOf(phone?.value ?? ''),
    emailType: email?.type ?? null,
    phoneType: phone?.type ?? null,
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
  const { emailType, phoneType, attributes, ...fields } = fieldsOf(user, await fieldRulesOf(ctx));
  const password = (user as { password?: unknown }).password;
  // A taken userName is said first (409), whatever else the field rules refuse: Okta's recreate of
  // a user it already made expects the 409.
  if (typeof fields.username === 'string' && (await usernameTaken(ctx, fields.username))) throw fieldError([{ field: 'username', rule: 'rule.usernameTaken' }]);
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
    await keepContactTypes(ctx, user.id, { emailType, phoneType });
    await keepAttributes(ctx, caller, user.id, attributes, null);
    return user;
  });
  return answer(ctx, caller, await rowOf(ctx, caller, created.id), query.projection);
}

/**
 * Writes a whole user (PUT, or the result of a PATCH: `patched`; `wanted` makes it from the stored
 * user) over the user `id`: one change, its records with it; answers the user as the change left it.
 * SCIM sends no version (no ETags: discovery.ts), so the stored user is read in the change with its
 * row locked: writes of one user run one after the other, each over what the one before wrote (a
 * PATCH of one attribute keeps the others'), never refused for a version the client did not send.
 */
function writeUser(ctx: Ctx, caller: ScimCaller, id: string, wanted: (current: Row) => ScimUser | Promise<ScimUser>, patched = false): Promise<Row> {
  return ctx.audit.change(async () => {
    await lockUsers(ctx, (eb) => eb('id', '=', id));
    const current = await rowOf(ctx, caller, id);
    await writeFields(ctx, caller, current, await wanted(current), patched);
    return rowOf(ctx, caller, id);
  });
}

async function writeFields(ctx: Ctx, caller: ScimCaller, current: Row, user: ScimUser, patched: boolean): Promise<void> {
  const externalId = externalIdOf(user);
  const { emailType, phoneType, attributes, ...fields } = fieldsOf(user, await fieldRulesOf(ctx), current, patched);
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
  const updated = JSON.stringify(changes) !== JSON.stringify(stored);
  if (updated) {
    // Only the fields that change are checked by the field rules in force (users.updateUser): a
    // person stored under other rules can still be disabled.
    await withFieldRules(ctx, () =>
      users.updateUser(ctx, caller.actor, current.id, checked(userUpdateBody, { ...changes, version: current.version }), caller.ip),
    );
  }
  const linked = await setExternalId(ctx, caller, 'user', current.id, externalId);
  const typed = await keepContactTypes(ctx, current.id, { emailType, phoneType }, { actor: caller.actor, person: current });
  const kept = await keepAttributes(ctx, caller, current.id, attributes, current.attributes, current);
  // meta.lastModified is the person's updatedAt: it moves with a change of what SCIM holds beside
  // the console's fields too (clients read it to see a change). The console's version stays: its
  // forms hold none of these.
  if (!updated && (linked || typed || kept)) await ctx.db.updateTable('users').set({ updatedAt: ctx.now() }).where('id', '=', current.id).execute();
}

export async function replaceUser(ctx: Ctx, caller: ScimCaller, id: string, body: unknown, query: ReadQuery) {
  const replaced = await writeUser(ctx, caller, id, () => incoming(SCIMMY.Schemas.User, body));
  return answer(ctx, caller, replaced, query.projection);
}

export async function patchUser(ctx: Ctx, caller: ScimCaller, id: string, body: unknown, query: ReadQuery) {
  const patched = await writeUser(
    ctx,
    caller,
    id,
    (current) => applyPatch(body, new SCIMMY.Schemas.User(scimUserOf(ctx, caller, current), 'out', locationOf(ctx, '/Users'))),
    true,
  );
  return answer(ctx, caller, patched, query.projection);
}

export async function deleteUser(ctx: Ctx, caller: ScimCaller, id: string): Promise<void> {
  await users.deleteUser(ctx, caller.actor, (await rowOf(ctx, caller, id)).id, caller.ip);
}
