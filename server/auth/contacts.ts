// One email address (in any letter case) and one mobile phone per account: otherwise a second
// account could take a person's address, and sign-in by email, or a password reset to it, would
// no longer find them. Checked before each write for a clear answer, and enforced by the
// database's unique indexes (0011_unique_contacts) so that two parallel writes cannot both win.
// A person changing their OWN address in the profile proves the address first: the new address
// gets a one-time code and takes effect only once that code is confirmed (the old one stays in force
// until then); administrators set other people's addresses directly. Any change of an address also
// takes the caller's current password (server/auth/contact-change.ts).
import { sql } from 'kysely';
import type { Ctx } from '../context';
import type { UserRow } from './actor';
import { MessageServiceType } from '../../src/core/enums';
import { ApiError, fieldError } from '../http/errors';
import { isUniqueViolation } from '../db/errors';
import { updateVersioned } from '../db/versioned';
import { checkCodeSentTo, liveCodeSentTo, sendCode, useCode } from './codes';
import { accountByUsername } from './usernames';
import { markEmailVerified } from './verified-email';

export type ContactField = 'email' | 'mobilePhone';
export type Contacts = Partial<Record<ContactField, string | null>>;

export const CONTACT_FIELDS: readonly ContactField[] = ['email', 'mobilePhone'];
const TAKEN: Record<ContactField, string> = { email: 'rule.emailTaken', mobilePhone: 'rule.mobilePhoneTaken' };
/** The contact unique indexes as each engine names them in a violation (SQLite names an index on
 *  a plain column by the column). */
const UNIQUE_INDEX: Record<string, ContactField> = {
  users_email_unique: 'email',
  users_mobile_phone_unique: 'mobilePhone',
  'users.mobile_phone': 'mobilePhone',
};
const CHANGE = {
  email: { purpose: 'email-change', via: MessageServiceType.EMAIL },
  mobilePhone: { purpose: 'phone-change', via: MessageServiceType.SMS },
} as const;

/** The one account whose sign-in identifier `column` is `value` (none, or several: undefined),
 *  compared as the unique indexes compare: an email or a username in any letter case. */
export async function accountByIdentifier(ctx: Ctx, column: 'username' | 'email' | 'mobilePhone', value: string): Promise<UserRow | undefined> {
  if (column === 'username') return accountByUsername(ctx, value);
  const users = ctx.db.selectFrom('users').selectAll();
  const matching = column === 'email' ? users.where(sql`lower(email)`, '=', sql`lower(${value})`) : users.where(column, '=', value);
  const rows = await matching.limit(2).execute();
  return rows.length === 1 ? rows[0] : undefined;
}

/** 400 naming each of `contacts` that an account other than `ownerId` already has. */
export async function assertContactsFree(ctx: Ctx, contacts: Contacts, ownerId?: string): Promise<void> {
  const taken: ContactField[] = [];
  for (const field of CONTACT_FIELDS) {
    const value = contacts[field];
    if (!value) continue;
    let holder = ctx.db.selectFrom('users').select('id');
    // Compared as the unique index compares: the email by lower(), the phone as written (the
    // phone rule admits one spelling of a number, the one sign-in compares).
    holder = field === 'email' ? holder.where(sql`lower(email)`, '=', sql`lower(${value})`) : holder.where('mobilePhone', '=', value);
    if (ownerId) holder = holder.where('id', '!=', ownerId);
    if (await holder.limit(1).executeTakeFirst()) taken.push(field);
  }
  if (taken.length) throw contactsTakenError(taken);
}

/** The addresses of `many` (people about to be written together) that accounts hold now, as
 *  `heldContactKey` names them: one query per field instead of assertContactsFree's per person. */
export async function heldContacts(ctx: Ctx, many: readonly Contacts[]): Promise<Set<string>> {
  const held = new Set<string>();
  for (const field of CONTACT_FIELDS) {
    const values = [...new Set(many.flatMap((contacts) => (contacts[field] ? [contactKey(field, contacts[field])] : [])))];
    if (!values.length) continue;
    const column = field === 'email' ? sql<string>`lower(email)` : sql<string>`${sql.ref('users.mobilePhone')}`;
    const rows = await ctx.db.selectFrom('users').select(column.as('key')).where(column, 'in', values).execute();
    for (const { key } of rows) held.add(heldContactKey(field, key));
  }
  return held;
}

/** An address as the unique index compares it (the email in lower case, the phone as written). */
const contactKey = (field: ContactField, value: string) => (field === 'email' ? value.toLowerCase() : value);
export const heldContactKey = (field: ContactField, value: string) => `${field}:${contactKey(field, value)}`;

/** The 400 assertContactsFree answers for the `taken` fields. */
export const contactsTakenError = (taken: readonly ContactField[]) => fieldError(taken.map((field) => ({ field, rule: TAKEN[field] })));

/** The contact field whose unique index `error` violates (a parallel write took the address). */
function contactOfViolation(error: unknown): ContactField | undefined {
  if (!isUniqueViolation(error)) return undefined;
  const { constraint, message } = error as { constraint?: string; message?: string };
  const sqliteName = /UNIQUE constraint failed: (?:index '([^']+)'|(users\.\w+))/.exec(message ?? '');
  return UNIQUE_INDEX[constraint ?? sqliteName?.[1] ?? sqliteName?.[2] ?? ''];
}

/** Runs a write of contacts; losing a race for an address answers that field's 400. */
export async function writingContacts<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const field = contactOfViolation(error);
    if (field) throw fieldError([{ field, rule: TAKEN[field] }]);
    throw error;
  }
}

/** The contacts of `wanted` that differ from the person's current ones and need a code first:
 *  new non-empty addresses (clearing one needs no code; the password re-check was asked). */
export function contactsToConfirm(user: UserRow, wanted: Contacts): Partial<Record<ContactField, string>> {
  return Object.fromEntries(
    CONTACT_FIELDS.flatMap((field) => {
      const value = wanted[field];
      return value && value !== user[field] ? [[field, value]] : [];
    }),
  );
}

/** Sends a code to each new address (after checking no other account has it). Asking again within
 *  the minute for the same address counts as sent (its code still works). */
export async function requestContactChanges(ctx: Ctx, user: UserRow, pending: Partial<Record<ContactField, string>>): Promise<void> {
  await assertContactsFree(ctx, pending, user.id);
  for (const field of CONTACT_FIELDS) {
    const address = pending[field];
    if (!address) continue;
    const { purpose, via } = CHANGE[field];
    try {
      await sendCode(ctx, user, purpose, via, address);
    } catch (error) {
      const resent = error instanceof ApiError && error.status === 429 && (await liveCodeSentTo(ctx, user.id, purpose)) === address;
      if (!resent) throw error;
    }
  }
}

const wrongCode = () => fieldError([{ field: 'code', rule: 'rule.code' }]);

/** The pending address of `field` that `code` proves, with the code's id. Call it before the change
 *  that applies the address (applyContactChange): the wrong try it counts must stay counted when
 *  that change is refused and rolled back. */
export async function checkContactCode(ctx: Ctx, user: UserRow, field: ContactField, code: string): Promise<{ id: string; address: string }> {
  const checked = await checkCodeSentTo(ctx, user.id, CHANGE[field].purpose, code);
  if (!checked?.sentTo) throw wrongCode();
  return { id: checked.id, address: checked.sentTo };
}

/** Applies the address a checked code proved (checkContactCode), checking again that no other
 *  account has taken it meanwhile; answers the saved row. */
export async function applyContactChange(ctx: Ctx, user: UserRow, field: ContactField, proof: { id: string; address: string }): Promise<UserRow> {
  const { id, address } = proof;
  await assertContactsFree(ctx, { [field]: address }, user.id);
  if (!(await useCode(ctx, id))) throw wrongCode();
  // The code proved the mailbox: the new email address counts as verified (verified-email.ts).
  const extraProp = field === 'email' ? { extraProp: markEmailVerified(user.extraProp, address, ctx.now()) } : {};
  await writingContacts(() => updateVersioned(ctx.db, 'users', user.id, undefined, { [field]: address, ...extraProp }, ctx.now()));
  return ctx.db.selectFrom('users').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
}
