// New-device sign-in notices. A browser that signs in gets a long-lived HttpOnly cookie holding a
// random id; the person's row in `known_devices` keeps only the id's digest. A sign-in from a device
// the person has not used before sends them an in-site message, and an e-mail when an e-mail
// channel is enabled and they have an address (the outbox delivers it), saying when, which browser,
// from which IP address and what to do if it was not them. A person's very first sign-in (no device
// known yet, also the first after this feature arrived) tells nobody.
//
// A sign-in in token mode (a page on another site, whose fetches carry no cookie of ours) is
// recognised by its browser's user agent and IP address instead.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type {} from '@fastify/cookie';
import type { Ctx } from '../context';
import type { UserRow } from './actor';
import { MessageServiceType } from '../../src/core/enums';
import { DeliveryStatus, InboxStatus } from '../../src/core/schemas/messaging';
import type { Insertable } from 'kysely';
import { freshMessage, outboxDb, type OutboxDatabase } from '../channels/tables';
import { answerLanguage } from '../http/language';
import { digest, newId, newSecret } from './secrets';
import { newDeviceNotice, noticeFacts } from './new-device-notice';
import { reachedOverHttps } from '../http/public-origin';

const DEVICE_COOKIE = 'iam_device';
/** Browsers cap a cookie's lifetime at 400 days; every sign-in renews it. */
const DEVICE_COOKIE_SECONDS = 400 * 24 * 3600;
const DEVICE_ID = /^[\w-]{43}$/;

export interface SignInClient {
  ip: string;
  userAgent: string | null;
}

/** The digest that names this browser: its cookie's id (given one now when it has none), or, in
 *  token mode, its user agent and address. */
function deviceOf(req: FastifyRequest, reply: FastifyReply, tokenMode: boolean, client: SignInClient): string {
  if (tokenMode) return digest(`agent:${client.userAgent ?? ''} ${client.ip}`);
  const cookie = req.cookies[DEVICE_COOKIE];
  const id = cookie && DEVICE_ID.test(cookie) ? cookie : newSecret();
  reply.setCookie(DEVICE_COOKIE, id, { path: '/api', httpOnly: true, sameSite: 'lax', secure: reachedOverHttps(req), maxAge: DEVICE_COOKIE_SECONDS });
  return digest(`cookie:${id}`);
}

/** Records the device of a sign-in that opened a session, and notifies the person when it is new
 *  (and not their first). */
export async function noteSignInDevice(
  ctx: Ctx,
  req: FastifyRequest,
  reply: FastifyReply,
  user: UserRow,
  tokenMode: boolean,
  client: SignInClient,
): Promise<void> {
  const deviceHash = deviceOf(req, reply, tokenMode, client);
  const now = ctx.now();
  const inserted = await ctx.db
    .insertInto('knownDevices')
    .values({ userId: user.id, deviceHash, firstSeenAt: now, lastSeenAt: now })
    .onConflict((oc) => oc.columns(['userId', 'deviceHash']).doNothing())
    .returning('userId')
    .executeTakeFirst();
  if (!inserted) {
    await ctx.db.updateTable('knownDevices').set({ lastSeenAt: now }).where('userId', '=', user.id).where('deviceHash', '=', deviceHash).execute();
    return;
  }
  const another = await ctx.db
    .selectFrom('knownDevices')
    .select('userId')
    .where('userId', '=', user.id)
    .where('deviceHash', '!=', deviceHash)
    .limit(1)
    .executeTakeFirst();
  if (another) await sendNewDeviceNotice(ctx, user, client, answerLanguage(req.headers['accept-language']));
}

async function emailChannelEnabled(ctx: Ctx): Promise<boolean> {
  const channel = await ctx.db
    .selectFrom('channels')
    .select('id')
    .where('serviceType', '=', MessageServiceType.EMAIL)
    .where('enabled', '=', 1)
    .limit(1)
    .executeTakeFirst();
  return channel !== undefined;
}

/** The in-site message, and the e-mail where one can go (queued for the outbox worker). */
async function sendNewDeviceNotice(ctx: Ctx, user: UserRow, client: SignInClient, language: 'en' | 'zh'): Promise<void> {
  const now = ctx.now();
  const facts = { at: now, userAgent: client.userAgent, ip: client.ip, username: user.username };
  const { title, content } = newDeviceNotice(language, facts);
  const base = {
    recipientId: user.id,
    vendor: null,
    channelId: null,
    title,
    content,
    ...freshMessage(now),
    notice: noticeFacts(facts),
  };
  const rows: Insertable<OutboxDatabase['messages']>[] = [
    { ...base, id: newId(), serviceType: MessageServiceType.SITE_MESSAGE, address: null, status: InboxStatus.Unread, sentAt: now },
  ];
  if (user.email && (await emailChannelEnabled(ctx))) {
    rows.push({ ...base, id: newId(), serviceType: MessageServiceType.EMAIL, address: user.email, status: DeliveryStatus.Queued, sentAt: null });
  }
  await outboxDb(ctx.db).insertInto('messages').values(rows).execute();
}
