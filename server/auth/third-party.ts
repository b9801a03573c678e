// Third-party sign-in: after an identity provider authorised someone, a short-lived ticket holds
// their subject and profile. The console reads it (access info), the user completes missing data
// once (complement), and a local account linked to the subject is signed in. The ticket works only
// in the browser that started the sign-in (server/idp/browser-binding.ts). When the provider vouches
// that its email (email_verified) is that of an existing local account, nothing is linked
// silently: the person either proves
// they own that account (its password, and its authenticator code when it has one) and the link
// is remembered, or makes a new account through the complement. The new account takes only the
// addresses the provider vouched for; another address typed there is sent a code to prove it.
import { sql } from 'kysely';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { Ctx } from '../context';
import { Scope, Status, UserType } from '../../src/core/enums';
import { digest, newId, newSecret } from './secrets';
import { usernameTaken as usernameHeld } from './usernames';
import { hashPassword, verifyPassword } from './kdf';
import { type FailureSlot, keysOfUser, lockedError, throttleKey, withFailureSlot } from './throttle';
import { attemptOn } from './login';
import { totpEnabled, verifyTotp } from './totp';
import { fieldError, notFound } from '../http/errors';
import { isUniqueViolation } from '../db/errors';
import { assertContactsFree, requestContactChanges, writingContacts, type ContactField, type Contacts } from './contacts';
import type { UserRow } from './actor';
import { checkBrowser } from '../idp/browser-binding';
import type { IdpTicketTable } from '../db/tables';
import type { LoginSettings } from '../../src/core/schemas/settings';

export const TICKET_TTL_MS = 10 * 60_000;

/** Called by the provider callback once the provider has authorised `subject`; `browserHash` binds
 *  the ticket to the browser that started the sign-in. */
export async function createIdpTicket(ctx: Ctx, input: { idpCode: string; subject: string; profile: Record<string, unknown>; browserHash: string }) {
  const link = await ctx.db
    .selectFrom('idpLinks')
    .select('userId')
    .where('idpCode', '=', input.idpCode)
    .where('subject', '=', input.subject)
    .executeTakeFirst();
  const token = newSecret().slice(0, 22);
  const accessTicket = newSecret();
  await ctx.db
    .insertInto('idpTickets')
    .values({
      ticketHash: digest(accessTicket),
      idpCode: input.idpCode,
      token,
      subject: input.subject,
      profile: JSON.stringify(input.profile),
      userId: link?.userId ?? null,
      expiresAt: ctx.now() + TICKET_TTL_MS,
      browserHash: input.browserHash,
    })
    .execute();
  return { token, accessTicket };
}

/** The live ticket for these values, or 404 (unknown, expired, wrong provider or token); 403 when
 *  `req` is not from the browser that started the sign-in. */
export async function findTicket(ctx: Ctx, req: FastifyRequest, idpCode: string, accessTicket: string, token?: string): Promise<IdpTicketTable> {
  const ticket = await ctx.db.selectFrom('idpTickets').selectAll().where('ticketHash', '=', digest(accessTicket)).executeTakeFirst();
  const provider = await ctx.db.selectFrom('idps').select('enabled').where('code', '=', idpCode).executeTakeFirst();
  if (!ticket || ticket.idpCode !== idpCode || (token !== undefined && ticket.token !== token) || ticket.expiresAt <= ctx.now() || provider?.enabled !== 1) {
    throw notFound('Authorization');
  }
  checkBrowser(req, ticket.browserHash);
  return ticket;
}

/** The one enabled local account whose email is the provider's, only when the provider vouches for
 *  that email (email_verified true; absent or false matches nothing, so the answers tell nothing
 *  about which emails have accounts), and not when several accounts share it. */
export async function existingAccountOf(ctx: Ctx, profileText: string): Promise<UserRow | undefined> {
  const profile = JSON.parse(profileText) as Record<string, unknown>;
  if (typeof profile.email !== 'string' || !profile.email || profile.email_verified !== true) return undefined;
  const rows = await ctx.db
    .selectFrom('users')
    .selectAll()
    .where(sql<string>`lower(email)`, '=', profile.email.trim().toLowerCase())
    .where('availabilityStatus', '=', Status.Enable)
    .limit(2)
    .execute();
  return rows.length === 1 ? rows[0] : undefined;
}

/** Links the (found) ticket's provider account to the existing account with its email, once the
 *  person has given that account's password (transformed as at sign-in) and, when it has an
 *  authenticator app, a code from it. Failures count towards the account's sign-in lockout.
 *  Answers the account. */
export async function linkTicket(ctx: Ctx, ticket: IdpTicketTable, proof: { password: string; code?: string }): Promise<UserRow> {
  const { idpCode } = ticket;
  const user = ticket.userId ? undefined : await existingAccountOf(ctx, ticket.profile);
  if (!user) throw notFound('Account');
  const { value: policy } = await ctx.settings.get('login');
  await withFailureSlot(ctx, throttleKey('username', user.username), policy, (slot) => proveAccount(ctx, user, idpCode, proof, policy, slot));
  const now = ctx.now();
  await ctx.audit.change(async () => {
    await ctx.db.transaction().execute(async (trx) => {
      await useUp(trx, ticket);
      await trx.insertInto('idpLinks').values({ idpCode, subject: ticket.subject, userId: user.id, createdAt: now }).execute();
    });
    await ctx.audit.record({
      action: 'user.update',
      actor: user,
      target: { type: 'user', id: user.id },
      tenantId: user.tenantId,
      detail: { idpLinked: idpCode },
    });
  });
  return user;
}

/** Deletes the ticket; 404 when a parallel call took it first (a ticket works once). */
async function useUp(db: Ctx['db'], ticket: IdpTicketTable): Promise<void> {
  const deleted = await db.deleteFrom('idpTickets').where('ticketHash', '=', ticket.ticketHash).executeTakeFirst();
  if (Number(deleted.numDeletedRows) !== 1) throw notFound('Authorization');
}

/** The account's password and, when it has an authenticator app, a code from it, holding a place
 *  in the account's failure count (kept when either is wrong, cleared when both are right). */
async function proveAccount(
  ctx: Ctx,
  user: UserRow,
  idpCode: string,
  proof: { password: string; code?: string },
  policy: LoginSettings,
  slot: FailureSlot,
): Promise<void> {
  const refuse = async (field: string, rule: string): Promise<never> => {
    slot.keep();
    await ctx.audit.standalone({
      action: slot.locks ? 'login.locked' : 'login.failure',
      success: false,
      detail: { username: user.username, idp: idpCode, reason: 'link' },
      ...attemptOn(user),
    });
    throw slot.locks ? lockedError(policy) : fieldError([{ field, rule }]);
  };
  if (!(await verifyPassword(user.passwordHash, proof.password))) return refuse('password', 'rule.wrongPassword');
  if (await totpEnabled(ctx, user.id)) {
    if (!proof.code) throw fieldError([{ field: 'code', rule: 'rule.totpCode' }]);
    if (!(await verifyTotp(ctx, user.id, proof.code))) return refuse('code', 'rule.totpCode');
  }
  await slot.clear(keysOfUser(user));
}

/** The first-time complement's contacts: what the account is made with (the addresses the provider
 *  vouched for), and what the person typed beyond them (to be proven by a code first). */
interface SortedContacts {
  stored: Contacts;
  toProve: Partial<Record<ContactField, string>>;
}

/** A typed email becomes the account's address only when it is the one the provider vouched for
 *  (email_verified true), a typed phone only when it is the provider's vouched number
 *  (phone_number_verified true): anything else would let anyone with an account at the provider
 *  store an address they never proved, which is then the account's sign-in and reset address, and
 *  taken for its real owner. */
function sortContacts(profileText: string, complement: Contacts): SortedContacts {
  const profile = JSON.parse(profileText) as Record<string, unknown>;
  const vouched: Record<ContactField, (typed: string) => boolean> = {
    email: (typed) => profile.email_verified === true && typeof profile.email === 'string' && profile.email.trim().toLowerCase() === typed.toLowerCase(),
    mobilePhone: (typed) => profile.phone_number_verified === true && profile.phone_number === typed,
  };
  const sorted: SortedContacts = { stored: {}, toProve: {} };
  for (const field of ['email', 'mobilePhone'] as const) {
    const typed = complement[field];
    if (!typed) continue;
    if (vouched[field](typed)) sorted.stored[field] = typed;
    else sorted.toProve[field] = typed;
  }
  return sorted;
}

/** What redeeming a ticket made: the person, and the typed addresses a code was sent to (they become
 *  the account's once the person enters that code in the personal center, as for any change of
 *  address: server/auth/contacts.ts). */
export interface Redeemed {
  user: UserRow;
  toProve: ContactField[];
}

/** Uses the (found) ticket up and answers the linked user, creating and linking one on first use.
 *  Every refusal (a field missing, a username, email or phone another account has) is answered
 *  before the ticket is used up, and the account is made in the transaction that uses it up, so a
 *  parallel write taking an address answers 400 and the ticket still works. */
export async function redeemTicket(
  ctx: Ctx,
  ticket: IdpTicketTable,
  complement: { username?: string; realName?: string; email?: string; mobilePhone?: string },
  log: FastifyBaseLogger,
): Promise<Redeemed> {
  const { idpCode } = ticket;
  if (ticket.userId) {
    await useUp(ctx.db, ticket);
    return { user: await ctx.db.selectFrom('users').selectAll().where('id', '=', ticket.userId).executeTakeFirstOrThrow(), toProve: [] };
  }
  if (!complement.username || !complement.realName) {
    throw fieldError([
      ...(complement.username ? [] : [{ field: 'username', rule: 'rule.required' }]),
      ...(complement.realName ? [] : [{ field: 'realName', rule: 'rule.required' }]),
    ]);
  }
  // Taken values are answered before the ticket is used up, so the person can pick others; the
  // addresses to prove are checked too (the code would be refused for them anyway).
  if (await usernameHeld(ctx, complement.username)) throw usernameTaken();
  await assertContactsFree(ctx, { email: complement.email, mobilePhone: complement.mobilePhone });
  const { stored, toProve } = sortContacts(ticket.profile, complement);
  const root = await ctx.db.selectFrom('tenants').select('id').where('scope', '=', Scope.Platform).where('parentId', 'is', null).executeTakeFirstOrThrow();
  const now = ctx.now();
  const user: UserRow = {
    id: newId(),
    username: complement.username,
    realName: complement.realName,
    email: stored.email ?? null,
    mobilePhone: stored.mobilePhone ?? null,
    description: null,
    availabilityStatus: Status.Enable,
    avatar: null,
    extraProp: JSON.stringify({ idp: idpCode }),
    userType: UserType.Tenant,
    tenantId: root.id,
    isAdmin: 0,
    isMaster: 0,
    // Nobody knows this password: the account signs in through its provider (or after a reset).
    passwordHash: await hashPassword(newSecret()),
    passwordChangedAt: now,
    version: 1,
    createdAt: now,
    updatedAt: now,
  };
  await ctx.audit.change(async () => {
    await writingContacts(async () => {
      try {
        await ctx.db.transaction().execute(async (trx) => {
          await useUp(trx, ticket);
          await trx.insertInto('users').values(user).execute();
          await trx.insertInto('idpLinks').values({ idpCode, subject: ticket.subject, userId: user.id, createdAt: now }).execute();
        });
      } catch (error) {
        // A parallel write took the username (the contacts' violations are writingContacts').
        if (isUniqueViolation(error) && (await usernameHeld(ctx, user.username))) throw usernameTaken();
        throw error;
      }
    });
    await ctx.audit.record({
      action: 'user.create',
      actor: null,
      target: { type: 'user', id: user.id },
      tenantId: user.tenantId,
      detail: { idp: idpCode, toProve: Object.keys(toProve) },
    });
  });
  return { user, toProve: await sendProofCodes(ctx, user, toProve, log) };
}

const usernameTaken = () => fieldError([{ field: 'username', rule: 'rule.usernameTaken' }]);

/** Sends a code to each typed address; answers those it was sent to. The account exists already:
 *  a failure (another account took the address a moment ago) costs only that address, which the
 *  person can give again in the personal center. */
async function sendProofCodes(ctx: Ctx, user: UserRow, toProve: Partial<Record<ContactField, string>>, log: FastifyBaseLogger): Promise<ContactField[]> {
  const sent: ContactField[] = [];
  for (const [field, address] of Object.entries(toProve) as [ContactField, string][]) {
    try {
      await requestContactChanges(ctx, user, { [field]: address });
      sent.push(field);
    } catch (error) {
      log.warn({ err: error, field }, 'the code proving a contact typed at the third-party complement was not sent');
    }
  }
  return sent;
}
