// The SCIM attributes of a person that no console field holds — name.givenName and familyName,
// title, addresses, preferredLanguage, the enterprise extension's employeeNumber, department and
// manager, … (everything of the User schema and its extension that /Schemas advertises, but the
// mapped ones, server/scim/users.ts) — kept as the client wrote them and answered back. Entra ID and
// Okta compare what they read with what they wrote (Okta's spec test asserts name.givenName), so a
// write answered 2xx must be read back as written, never dropped.
import type SCIMMY from 'scimmy';
import type { Ctx } from '../context';
import type { UserRow } from '../auth/actor';
import { assertMayActOn } from '../auth/grants';
import type { ScimCaller } from './caller';
import { invalidValue } from './errors';

type Attributes = Record<string, unknown>;

/** What the mapped console fields answer (or what is never kept: password, read-only groups, meta). */
const MAPPED = ['schemas', 'id', 'meta', 'externalId', 'userName', 'displayName', 'active', 'password', 'emails', 'phoneNumbers', 'groups'];

/** A person's attributes beside their console fields stay small: a directory's profile, not a store. */
const MAX_ATTRIBUTES_LENGTH = 16 * 1024;

const isEmpty = (value: unknown) => value === undefined || value === null || (typeof value === 'object' && Object.keys(value).length === 0);

/** The attributes of a SCIM user (as scimmy read it) that no console field holds; name.formatted is the real name. */
export function unmappedAttributes(user: InstanceType<typeof SCIMMY.Schemas.User>): Attributes {
  const all = JSON.parse(JSON.stringify(user)) as Attributes;
  const { formatted: _realName, ...name } = (all.name ?? {}) as Attributes;
  const kept: Attributes = { ...all, name };
  for (const key of MAPPED) delete kept[key];
  return Object.fromEntries(Object.entries(kept).filter(([, value]) => !isEmpty(value)));
}

/** The stored attributes of a person (none: `{}`). */
export const storedAttributes = (json: string | null): Attributes => (json ? (JSON.parse(json) as Attributes) : {});

/** The names of the attributes that differ between `before` and `after`. */
function changedNames(before: Attributes, after: Attributes): string[] {
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...names].filter((name) => JSON.stringify(before[name]) !== JSON.stringify(after[name])).sort();
}

/** Keeps `attributes` as person `userId`'s (part of the change running now) when they changed from
 *  `stored` (true then), with a `scim.attributes` record naming the attributes (not their values). Over a stored
 *  person (`over`) a change of them is a change of the person: refused (403) where the caller may
 *  not act (an administrator), as a change of any other field. */
export async function keepAttributes(
  ctx: Ctx,
  caller: ScimCaller,
  userId: string,
  attributes: Attributes,
  stored: string | null,
  over?: UserRow,
): Promise<boolean> {
  const json = JSON.stringify(attributes);
  if (json === (stored ?? '{}')) return false;
  if (json.length > MAX_ATTRIBUTES_LENGTH) throw invalidValue(`The attributes beside the console's fields take at most ${MAX_ATTRIBUTES_LENGTH} characters`);
  if (over) await assertMayActOn(ctx, caller.actor, over);
  if (json === '{}') {
    await ctx.db.deleteFrom('scimUserAttributes').where('userId', '=', userId).execute();
  } else {
    await ctx.db
      .insertInto('scimUserAttributes')
      .values({ userId, attributes: json })
      .onConflict((oc) => oc.column('userId').doUpdateSet({ attributes: json }))
      .execute();
  }
  await ctx.audit.record({
    action: 'scim.attributes',
    actor: caller.actor,
    target: { type: 'user', id: userId },
    tenantId: caller.tenantId,
    ip: caller.ip,
    detail: { attributes: changedNames(storedAttributes(stored), attributes) },
  });
  return true;
}
