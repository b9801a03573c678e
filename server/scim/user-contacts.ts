// A person's e-mails and phone numbers as SCIM's multi-valued `emails` and `phoneNumbers` (RFC 7643
// §4.1.2), both ways. The console holds one value of each (users.email, users.mobilePhone: where a
// password reset goes); a client may send several (Entra ID's default mapping sends a work, a mobile
// and a fax number). The console's one is the value marked primary, else the one of the default type
// (`work` e-mail, `mobile` phone), else the only one; several of other types give the console none (a
// fax is no phone to send a reset code to). Its `type` is kept (table scim_contact_types) and it
// is answered first, primary. The others are kept beside it as the client sent them (type, value,
// primary) with the SCIM attributes no console field holds (server/scim/user-attributes.ts) and
// answered after it, so that filtered paths (`phoneNumbers[type eq "fax"].value`) name each value.
// Only a list that cannot say which value is the console's (two marked primary) is refused 400.
import type { Ctx } from '../context';
import type { Actor, UserRow } from '../auth/actor';
import { assertMayActOn } from '../auth/grants';
import { invalidValue } from './errors';
import type { FilterAttributes } from './filter';

type Valued = { value?: unknown; type?: unknown; primary?: unknown };
type Kind = 'emails' | 'phoneNumbers';
type Entry = Valued & { value: string };
/** A value kept beside the console's one, as the client sent it. */
type Kept = Record<string, unknown>;

const DEFAULT_TYPE: Record<Kind, string> = { emails: 'work', phoneNumbers: 'mobile' };
const NOUN: Record<Kind, string> = { emails: 'e-mail address', phoneNumbers: 'phone number' };
const MAX_TYPE_LENGTH = 64;
/** The values kept beside the console's one are no field of its: no field rule checks them, these caps do. */
const MAX_VALUES = 10;
const MAX_KEPT_LENGTH: Record<Kind, number> = { emails: 254, phoneNumbers: 64 };
/** Control, format (bidi, zero-width), private-use and unassigned characters. */
const INVISIBLE = /\p{C}/u;

/** One value as the product holds it, with the type it was given (null: none given). */
interface Contact {
  value: string;
  type: string | null;
}

/** A client's list as kept: the console's value (none for an empty list) and the others. */
interface Contacts {
  held?: Contact;
  others: Kept[];
}

/** A phone number as the console keeps it, without separators: a mainland one without its country
 *  code ("+86 138-0000-0000" → "13800000000"), another in E.164 ("+44 20 7946 0958" →
 *  "+442079460958", so that the stored number sent back formatted is no change); anything else is
 *  left for the field rule to refuse. */
export function mobilePhoneOf(value: string): string {
  const digits = value.replace(/[\s().-]/g, '').replace(/^(?:\+|00)86/, '');
  return /^\+?\d+$/.test(digits) ? digits : value;
}

/** What makes two values one: an address in any letter case, a number without its separators. */
const sameKey = (kind: Kind, value: string) => (kind === 'emails' ? value.toLowerCase() : mobilePhoneOf(value));

function typeOf(kind: Kind, entry: Valued): string | null {
  if (entry.type === undefined || entry.type === null || entry.type === '') return null;
  if (typeof entry.type !== 'string' || entry.type.length > MAX_TYPE_LENGTH)
    throw invalidValue(`${kind}.type must be a text of at most ${MAX_TYPE_LENGTH} characters`);
  return entry.type;
}

/** The entry of `entries` that is the console's: the one marked primary, else the first of the
 *  default type, else the only value (none: several of other types). `heldKey` is the value a PATCH started from (answered
 *  as primary): a new primary beside it turns it off (RFC 7644 §3.5.2). */
function consolesEntry(kind: Kind, entries: Entry[], heldKey: string | undefined): Entry | undefined {
  const marked = entries.filter((entry) => entry.primary === true);
  const primaries = new Set(marked.map((entry) => sameKey(kind, entry.value)));
  if (primaries.size > 1 && heldKey !== undefined) primaries.delete(heldKey);
  if (primaries.size > 1) throw invalidValue(`${kind}: more than one ${NOUN[kind]} is marked primary; mark one (the console keeps it as the person's)`);
  const [key] = primaries;
  if (key !== undefined) return marked.find((entry) => sameKey(kind, entry.value) === key)!;
  const ofDefaultType = entries.find((entry) => typeof entry.type === 'string' && entry.type.toLowerCase() === DEFAULT_TYPE[kind]);
  return ofDefaultType ?? (new Set(entries.map((entry) => sameKey(kind, entry.value))).size === 1 ? entries[0] : undefined);
}

/** A value kept beside the console's, checked by the caps; a primary turned off by a new one is no longer primary. */
function keptOf(kind: Kind, entry: Entry): Kept {
  typeOf(kind, entry);
  if (entry.value.length > MAX_KEPT_LENGTH[kind] || INVISIBLE.test(entry.value)) {
    throw invalidValue(`${kind}: a ${NOUN[kind]} is a text of at most ${MAX_KEPT_LENGTH[kind]} characters, without control or invisible characters`);
  }
  return entry.primary === true ? { ...entry, primary: false } : { ...entry };
}

/**
 * A client's emails or phoneNumbers (booleans already read as meant) as kept: the console's value
 * and the others (repeats of the console's value left out). `held` is the value a PATCH started from.
 * `fits`: whether a value can be the console's (a phone number its field rule refuses, e.g. a
 * landline or a foreign number under the default mainland-mobile rule, is kept beside instead of
 * refusing the person: Entra ID sends every business phone it knows).
 */
export function contactsOf(kind: Kind, values: Valued[] | undefined, held?: string, fits: (value: string) => boolean = () => true): Contacts {
  const entries = (values ?? []).filter((entry): entry is Entry => typeof entry.value === 'string' && entry.value !== '');
  if (entries.length > MAX_VALUES) throw invalidValue(`${kind}: at most ${MAX_VALUES} values`);
  if (entries.length === 0) return { others: [] };
  const candidate = consolesEntry(kind, entries, held ? sameKey(kind, held) : undefined);
  const chosen = candidate && fits(candidate.value) ? candidate : undefined;
  const key = chosen && sameKey(kind, chosen.value);
  return {
    ...(chosen ? { held: { value: chosen.value, type: typeOf(kind, chosen) } } : {}),
    others: entries.filter((entry) => sameKey(kind, entry.value) !== key).map((entry) => keptOf(kind, entry)),
  };
}

/** The values as answered: the console's first, under the type it was given (else the default),
 *  primary; then the others as kept (one the console now holds too, changed there, left out). */
export function answeredContacts(kind: Kind, value: string | null, type: string | null, others: Kept[] = []) {
  const beside = value ? others.filter((other) => typeof other.value !== 'string' || sameKey(kind, other.value) !== sameKey(kind, value)) : others;
  const all = [...(value ? [{ value, type: type ?? DEFAULT_TYPE[kind], primary: true }] : []), ...beside];
  return all.length > 0 ? all : undefined;
}

/** The values kept beside the console's, as SCIM attributes (kept with the others no console field holds). */
export const keptBeside = (emails: Contacts, phoneNumbers: Contacts) => ({
  ...(emails.others.length > 0 ? { emails: emails.others } : {}),
  ...(phoneNumbers.others.length > 0 ? { phoneNumbers: phoneNumbers.others } : {}),
});

/** Stored SCIM attributes split into the values kept beside the console's e-mail and phone and the rest. */
export function besideOf(attributes: Record<string, unknown>): { emails?: Kept[]; phoneNumbers?: Kept[]; rest: Record<string, unknown> } {
  const { emails, phoneNumbers, ...rest } = attributes;
  return { emails: emails as Kept[] | undefined, phoneNumbers: phoneNumbers as Kept[] | undefined, rest };
}

/** Keeps the types of person `userId`'s e-mail and phone (part of the change running now); true when
 *  they changed. Over a stored person (`over`) a change of them is a change of the person: refused
 *  (403) as any other where the actor may not act (an administrator). */
export async function keepContactTypes(
  ctx: Ctx,
  userId: string,
  { emailType, phoneType }: { emailType: string | null; phoneType: string | null },
  over?: { actor: Actor; person: UserRow },
): Promise<boolean> {
  const stored = await ctx.db.selectFrom('scimContactTypes').select(['emailType', 'phoneType']).where('userId', '=', userId).executeTakeFirst();
  if ((stored?.emailType ?? null) === emailType && (stored?.phoneType ?? null) === phoneType) return false;
  if (over) await assertMayActOn(ctx, over.actor, over.person);
  if (emailType === null && phoneType === null) {
    await ctx.db.deleteFrom('scimContactTypes').where('userId', '=', userId).execute();
    return true;
  }
  await ctx.db
    .insertInto('scimContactTypes')
    .values({ userId, emailType, phoneType })
    .onConflict((oc) => oc.column('userId').doUpdateSet({ emailType, phoneType }))
    .execute();
  return true;
}

/** Filters on the types (`emails[type eq "other"]`): a value is there and its type, or the default, matches. */
export const CONTACT_TYPE_FILTERS: FilterAttributes = {
  'emails.type': { kind: 'tag', column: 'users.email', typeColumn: 'scimContactTypes.emailType', tag: DEFAULT_TYPE.emails },
  'phonenumbers.type': { kind: 'tag', column: 'users.mobilePhone', typeColumn: 'scimContactTypes.phoneType', tag: DEFAULT_TYPE.phoneNumbers },
};
