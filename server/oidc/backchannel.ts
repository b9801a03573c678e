// Back-channel logout: when a person's grants end (RP-initiated logout, console sign-out, disabling,
// deleting, a password reset: see revoke.ts), every app they had a grant with and that
// registered a back-channel logout URI is told so, server to server, with a logout token signed by
// the provider's keys (the app verifies it against the JWKS). What to send is queued in the
// database in the same call that ends the grants; the outbox worker (channels/outbox.ts) signs and
// posts each one, not waiting on it (one app's hanging receiver holds up no other app's logouts),
// and retries a failed post with a growing wait.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type Provider from 'oidc-provider';
import type { Ctx } from '../context';
import { oidcDb, type OidcDatabase } from './tables';
import { OidcProvider } from './provider';
import { outboundFetch, outboundPolicy } from '../http/outbound-address';
import { Dispatcher, type Deliveries } from '../channels/dispatcher';

const BACKCHANNEL_LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout';
/** A claimed delivery may be taken over by another process when its post has not finished by then. */
export const CLAIM_LEASE_MS = 60_000;
const POST_TIMEOUT_MS = 5_000;
export const LOGOUT_ATTEMPTS = 5;
/** Waits before the next attempt: 10 s, 30 s, 90 s, 270 s. */
export const backoffMs = (attempts: number) => 10_000 * 3 ** (attempts - 1);
/** Apps whose receivers are being posted to at once in this process. */
const APPS_AT_ONCE = 16;

/** An app the person had a grant with, and the provider session (sid) of it, when known. */
export interface LogoutTarget {
  clientId: string;
  sid?: string;
}

interface SessionPayload {
  authorizations?: Record<string, { sid?: string }>;
}

/** The apps the person has grants with (and the sessions of each), read before the grants are deleted. */
export async function logoutTargetsOf(db: Kysely<OidcDatabase>, personId: string): Promise<LogoutTarget[]> {
  const rows = await db
    .selectFrom('oidcPayloads')
    .select(['model', 'payload'])
    .where('accountId', '=', personId)
    .where('model', 'in', ['Grant', 'Session'])
    .execute();
  return rows.flatMap((row): LogoutTarget[] => {
    if (row.model === 'Grant') return [{ clientId: (JSON.parse(row.payload) as { clientId: string }).clientId }];
    const { authorizations = {} } = JSON.parse(row.payload) as SessionPayload;
    return Object.entries(authorizations).map(([clientId, { sid }]) => ({ clientId, sid }));
  });
}

/** Queues one logout token per session of the person with each app that registered a URI (one
 *  without `sid` for an app whose session is not known). */
export async function queueBackchannelLogouts(db: Kysely<OidcDatabase>, personId: string, targets: LogoutTarget[]): Promise<void> {
  const clientIds = [...new Set(targets.map((target) => target.clientId))];
  if (!clientIds.length) return;
  const listening = await db.selectFrom('oidcClients').select('appId').where('appId', 'in', clientIds).where('backchannelLogoutUri', 'is not', null).execute();
  const createdAt = Date.now();
  const rows = listening.flatMap(({ appId }) => {
    const sids = [...new Set(targets.filter((target) => target.clientId === appId && target.sid).map((target) => target.sid!))];
    return (sids.length ? sids : [null]).map((sid) => ({
      id: randomUUID(),
      appId,
      subject: personId,
      sid,
      status: 'queued',
      nextAttemptAt: null,
      error: null,
      createdAt,
    }));
  });
  if (rows.length) await db.insertInto('oidcLogoutDeliveries').values(rows).execute();
}

/** At a confirmed RP-initiated logout the provider tells each app of the ended session itself, with
 *  one post and no retry: its call queues the token for the outbox instead. */
export function sendProviderLogoutsThroughOutbox(provider: Provider, db: Kysely<OidcDatabase>): void {
  provider.Client.prototype.backchannelLogout = async function queue(this: InstanceType<Provider['Client']>, sub: string, sid: string) {
    await queueBackchannelLogouts(db, sub, [{ clientId: this.clientId, sid }]);
  };
}

/** Takes a due delivery for this process (one claimant wins); answers it, its attempt counted. */
async function claim(db: Kysely<OidcDatabase>, id: string, now: number) {
  const claimed = await db
    .updateTable('oidcLogoutDeliveries')
    .set((eb) => ({ status: 'sending', attempts: eb('attempts', '+', 1), nextAttemptAt: now + CLAIM_LEASE_MS }))
    .where('id', '=', id)
    .where((eb) => eb.or([eb('nextAttemptAt', 'is', null), eb('nextAttemptAt', '<=', now)]))
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) return undefined;
  return db
    .selectFrom('oidcLogoutDeliveries')
    .innerJoin('oidcClients', 'oidcClients.appId', 'oidcLogoutDeliveries.appId')
    .select(['oidcLogoutDeliveries.id', 'oidcLogoutDeliveries.appId', 'subject', 'sid', 'attempts', 'backchannelLogoutUri'])
    .where('oidcLogoutDeliveries.id', '=', id)
    .executeTakeFirst();
}

/** The logout token for the app, signed now by the provider (as its own back-channel logout does). */
async function logoutToken(ctx: Ctx, appId: string, subject: string, sid: string | null): Promise<string | undefined> {
  const provider = await OidcProvider.of(ctx).get();
  const client = await provider.Client.find(appId);
  if (!client) return undefined;
  const token = new provider.IdToken({ sub: subject }, { client, ctx: undefined });
  // Only `sub` of the person's claims (oidc-provider's own logout tokens set the same mask).
  (token as typeof token & { mask: Record<string, null> }).mask = { sub: null };
  token.set('events', { [BACKCHANNEL_LOGOUT_EVENT]: {} });
  token.set('jti', randomUUID());
  if (sid) token.set('sid', sid);
  return token.issue({ use: 'logout' });
}

/** Posts through outboundFetch: the URI was checked when it was saved, and is checked again here
 *  (a name may resolve to a private address since), pinned to the checked address, no redirect. */
async function post(ctx: Ctx, uri: string, token: string): Promise<void> {
  const response = await outboundFetch(uri, {
    method: 'POST',
    timeoutMs: POST_TIMEOUT_MS,
    maxResponseBytes: 1024,
    ...outboundPolicy(ctx.config),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ logout_token: token }),
  });
  if (response.status !== 200 && response.status !== 204) throw new Error(`HTTP ${response.status}`);
}

/** Posts one claimed logout token; a delivered one (or one whose app no longer listens) is deleted,
 *  a failed one waits for its next attempt, and after the last attempt it is given up (logged). */
async function deliver(ctx: Ctx, db: Kysely<OidcDatabase>, id: string): Promise<void> {
  const row = await claim(db, id, ctx.now());
  if (!row) return;
  const done = () => db.deleteFrom('oidcLogoutDeliveries').where('id', '=', row.id).execute();
  const token = row.backchannelLogoutUri ? await logoutToken(ctx, row.appId, row.subject, row.sid) : undefined;
  if (!row.backchannelLogoutUri || !token) return void (await done());
  try {
    await post(ctx, row.backchannelLogoutUri, token);
    await done();
  } catch (error) {
    const text = `Back-channel logout to ${row.backchannelLogoutUri} failed: ${(error as Error).message}`;
    if (row.attempts >= LOGOUT_ATTEMPTS) {
      console.warn(`${text}; given up after ${row.attempts} attempts`);
      return void (await done());
    }
    await db
      .updateTable('oidcLogoutDeliveries')
      .set({ status: 'queued', error: text.slice(0, 500), nextAttemptAt: ctx.now() + backoffMs(row.attempts) })
      .where('id', '=', row.id)
      .execute();
  }
}

/** Due deliveries looked at per query (a query that starts none ends the round). */
const LOOKAHEAD = 100;

/** Posts logouts as the webhooks' are (server/channels/dispatcher.ts), not waiting on each: one post
 *  at a time per app (to its receiver), to at most APPS_AT_ONCE apps at once, so an app whose
 *  receiver hangs holds up only its own logouts. `due` answers the due deliveries of the apps not
 *  in `busyApps`, oldest first. */
export function logoutDispatcher(
  due: (busyApps: string[], limit: number) => Promise<{ id: string; appId: string }[]>,
  send: (id: string) => Promise<void>,
  finished: () => void,
): Dispatcher {
  const deliveries: Deliveries = {
    due: async ({ keys }) => (await due(keys, LOOKAHEAD)).map(({ id, appId }) => ({ id, key: appId, owner: appId })),
    send,
  };
  return new Dispatcher(deliveries, { total: APPS_AT_ONCE, perOwner: 1 }, finished);
}

/** The dispatcher of the logout tokens; `finished` is told when a post ends (its app may have more due). */
export function logoutTokenDispatcher(ctx: Ctx, finished: () => void): Dispatcher {
  const db = oidcDb(ctx.db);
  const due = async (busyApps: string[], limit: number) => {
    const now = ctx.now();
    let query = db
      .selectFrom('oidcLogoutDeliveries')
      .select(['id', 'appId'])
      .where('status', 'in', ['queued', 'sending'])
      .where((eb) => eb.or([eb('nextAttemptAt', 'is', null), eb('nextAttemptAt', '<=', now)]));
    if (busyApps.length) query = query.where('appId', 'not in', busyApps);
    return query.orderBy('createdAt').orderBy('id').limit(limit).execute();
  };
  return logoutDispatcher(due, (id) => deliver(ctx, db, id), finished);
}
