// A change of an account's phone or email: they are where its password reset, its sign-in by phone
// code and its new-device notices go, so whoever moves or removes one can take the account over or
// blind its owner. One rule for every call that writes them (PUT /user/{id}, POST /user with an id,
// PUT /user/{id}/basic_info, PUT /user/profile): the caller proves it is them with their current
// password, through the personal center's re-check (server/auth/recheck.ts, counted towards the
// caller's lockout). For one's own account, because a session alone may be borrowed; for an
// administrator changing someone else's, because the administrator's password reset of that person
// takes the same password (server/services/users.ts, resetPassword), and a new phone followed by
// "forgot password" is a reset. The CSV import asks for no password: it refuses such changes of
// existing people (server/services/user-import.ts). A SCIM token (server/scim/caller.ts) is a
// provisioning client, not a person's session, and has no password: the directory feeding it is
// the source of these fields.
import type { Ctx } from '../context';
import type { Actor, UserRow } from './actor';
import { CONTACT_FIELDS, type ContactField, type Contacts } from './contacts';
import { recheck } from './recheck';

/** The contact fields `wanted` sets to another value than `user` has (a new, changed or removed address). */
export const changedContacts = (user: UserRow, wanted: Contacts): ContactField[] =>
  CONTACT_FIELDS.filter((field) => wanted[field] !== undefined && (wanted[field] || null) !== user[field]);

/** Resolves when `wanted` changes none of `target`'s addresses, or the actor's `currentPassword`
 *  (transformed) is right; otherwise 400 on `currentPassword` (429 once the actor is locked). */
export async function assertContactChangeProved(
  ctx: Ctx,
  actor: Actor,
  target: UserRow,
  wanted: Contacts,
  currentPassword: string | undefined,
  ip: string,
): Promise<void> {
  if (actor.provisioning || !changedContacts(target, wanted).length) return;
  await recheck(ctx, actor, { password: currentPassword }, ip, 'currentPassword');
}
