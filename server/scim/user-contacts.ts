// A person's one e-mail and one phone as SCIM's multi-valued `emails` and `phoneNumbers` (RFC 7643
// §4.1.2), both ways. The product holds one value of each: a client's list is read as that one
// value, and a list that does not say which one it is (several values and none marked primary, two
// primaries, a PATCH adding a second value beside the one held) is refused 400, never answered 200
// with a value dropped. The `type` the client gave the value is kept (table scim_contact_types) and
// answered back, so that its filtered paths (`emails[type eq "other"].value`) name the value held.
import type { Ctx } from '../context';
import type { Actor, UserRow } from '../auth/actor';
import { assertMayActOn } from '../auth/grants';
import { invalidValue } from './errors';
import type { FilterAttributes } from './filter';

type Valued = { value?: unknown; type?: unknown; primary?: unknown };
type Kind = 'emails' | 'phoneNumbers';

const DEFAULT_TYPE: Record<Kind, string> = { emails: 'work', phoneNumbers: 'mobile' };
const NOUN: Record<Kind, string> = { emails: 'e-mail address', phoneNumbers: 'phone number' };
const MAX_TYPE_LENGTH = 64;

/** One value as the product holds it, with the type it was given (null: none given). */
export interface Contact {
  value: string;
  type: string | null;
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

/**
 * The one value of `values` (a client's emails or phoneNumbers, booleans already read as meant),
 * undefined for none. One value (however many entries repeat it): that one. Several: the one marked
 * primary. `held` is the value a PATCH started from (answered as primary): a new primary beside it
 * turns it off (RFC 7644 §3.5.2), but a new value beside it without `primary` is refused, as is a
 * list with no primary or two.
 */
export function oneContact(kind: Kind, values: Valued[] | undefined, held?: string): Contact | undefined {
  const entries = (values ?? []).filter((entry): entry is Valued & { value: string } => typeof entry.value === 'string' && entry.value !== '');
  const keys = new Set(entries.map((entry) => sameKey(kind, entry.value)));
  if (keys.size === 0) return undefined;
  const chosenOf = (entry: Valued & { value: string }): Contact => ({ value: entry.value, type: typeOf(kind, entry) });
  if (keys.size === 1) return chosenOf(entries.find((entry) => entry.primary === true) ?? entries[0]!);
  const heldKey = held ? sameKey(kind, held) : undefined;
  const marked = entries.filter((entry) => entry.primary === true);
  const primaries = new Set(marked.map((entry) => sameKey(kind, entry.value)));
  if (primaries.size > 1 && heldKey !== undefined) primaries.delete(heldKey);
  const noun = NOUN[kind];
  if (primaries.size > 1) throw invalidValue(`${kind}: more than one ${noun} is marked primary; a person has one ${noun}, send only the one to keep`);
  if (primaries.size === 0) throw invalidValue(`${kind}: ${keys.size} values and none marked primary; a person has one ${noun}, send only the one to keep`);
  const [key] = primaries;
  if (key === heldKey) {
    throw invalidValue(`${kind}: this would add a second ${noun} beside the one held; a person has one ${noun}: replace it, or mark the new one primary`);
  }
  return chosenOf(marked.find((entry) => sameKey(kind, entry.value) === key)!);
}

/** The stored value as answered: under the type it was given (else the default), primary. */
export function answeredContact(kind: Kind, value: string | null, type: string | null) {
  return value ? [{ value, type: type ?? DEFAULT_TYPE[kind], primary: true }] : undefined;
}

/** Keeps the types of person `userId`'s e-mail and phone (part of the change running now). Over a
 *  stored person (`over`) a change of them is a change of the person: refused (403) as any other
 *  where the actor may not act (an administrator). */
export async function keepContactTypes(
  ctx: Ctx,
  userId: string,
  { emailType, phoneType }: { emailType: string | null; phoneType: string | null },
  over?: { actor: Actor; person: UserRow },
): Promise<void> {
  const stored = await ctx.db.selectFrom('scimContactTypes').select(['emailType', 'phoneType']).where('userId', '=', userId).executeTakeFirst();
  if ((stored?.emailType ?? null) === emailType && (stored?.phoneType ?? null) === phoneType) return;
  if (over) await assertMayActOn(ctx, over.actor, over.person);
  if (emailType === null && phoneType === null) {
    await ctx.db.deleteFrom('scimContactTypes').where('userId', '=', userId).execute();
    return;
  }
  await ctx.db
    .insertInto('scimContactTypes')
    .values({ userId, emailType, phoneType })
    .onConflict((oc) => oc.column('userId').doUpdateSet({ emailType, phoneType }))
    .execute();
}

/** Filters on the types (`emails[type eq "other"]`): a value is there and its type, or the default, matches. */
export const CONTACT_TYPE_FILTERS: FilterAttributes = {
  'emails.type': { kind: 'tag', column: 'users.email', typeColumn: 'scimContactTypes.emailType', tag: DEFAULT_TYPE.emails },
  'phonenumbers.type': { kind: 'tag', column: 'users.mobilePhone', typeColumn: 'scimContactTypes.phoneType', tag: DEFAULT_TYPE.phoneNumbers },
};
