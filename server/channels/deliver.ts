// Delivers one outgoing message through a channel and records the outcome on its row: the
// channel, service type and vendor used, `sent` with the time, or the error with a retry later
// (`queued`) until the attempts run out (`failed`).
import type { Selectable } from 'kysely';
import type { Ctx } from '../context';
import type { ChannelTable } from '../db/tables';
import { MessageServiceType } from '../../src/core/enums';
import { DeliveryStatus, InboxStatus } from '../../src/core/schemas/messaging';
import { DeliveryErrorCode } from '../../src/core/schemas/delivery-error';
import { outboxDb, type MessageRow } from './tables';
import { sendEmail } from './senders/email';
import { sendSms } from './senders/sms';
import { sendDingTalk, sendWeCom } from './senders/robots';
import { outboundPolicy } from '../http/outbound-address';
import { DeliveryError, type ChannelSettings, type Sender } from './senders/types';

type ChannelRow = Selectable<ChannelTable>;
type OutgoingType = Exclude<MessageServiceType, typeof MessageServiceType.SITE_MESSAGE>;

const senders: Record<OutgoingType, Sender> = {
  [MessageServiceType.EMAIL]: sendEmail,
  [MessageServiceType.SMS]: sendSms,
  [MessageServiceType.DING_TALK]: sendDingTalk,
  [MessageServiceType.QYWX_WEBHOOK]: sendWeCom,
};

/** A claimed message may be retried by another process when its sender has not finished by then. */
export const CLAIM_LEASE_MS = 2 * 60_000;
const MAX_ATTEMPTS = 3;
/** Waits before the 2nd and 3rd attempts. */
const backoffMs = (attempts: number) => 10_000 * 3 ** (attempts - 1);

const isEmail = (address: string | null | undefined): address is string => !!address && address.includes('@');
const isPhone = (address: string | null | undefined): address is string => !!address && /^\+?[\d\s-]{5,20}$/.test(address);

interface Route {
  channel: ChannelRow;
  address: string | null;
}

async function firstEnabled(ctx: Ctx, serviceType: string): Promise<ChannelRow | undefined> {
  return ctx.db
    .selectFrom('channels')
    .selectAll()
    .where('serviceType', '=', serviceType)
    .where('enabled', '=', 1)
    .orderBy('name')
    .orderBy('id')
    .executeTakeFirst();
}

/** The channel a message goes through: the one it names, else the first enabled channel of its
 *  type. A message for a phone goes by email when there is no SMS channel (or no number) but an
 *  email channel and an address (the sign-in code of a user without a mobile number). */
async function routeOf(ctx: Ctx, row: MessageRow): Promise<Route> {
  if (row.channelId) {
    const channel = await ctx.db.selectFrom('channels').selectAll().where('id', '=', row.channelId).executeTakeFirst();
    if (!channel) throw new DeliveryError(DeliveryErrorCode.ChannelGone);
    if (channel.enabled !== 1) throw new DeliveryError(DeliveryErrorCode.ChannelDisabled);
    return { channel, address: row.address };
  }
  const user = row.recipientId
    ? await ctx.db.selectFrom('users').select(['email', 'mobilePhone']).where('id', '=', row.recipientId).executeTakeFirst()
    : undefined;
  const candidates: [string, string | null | undefined][] =
    row.serviceType === MessageServiceType.SMS
      ? [
          [MessageServiceType.SMS, isPhone(row.address) ? row.address : user?.mobilePhone],
          [MessageServiceType.EMAIL, isEmail(row.address) ? row.address : user?.email],
        ]
      : row.serviceType === MessageServiceType.EMAIL
        ? [[MessageServiceType.EMAIL, isEmail(row.address) ? row.address : user?.email]]
        : [[row.serviceType, row.address]];
  const robot = row.serviceType === MessageServiceType.DING_TALK || row.serviceType === MessageServiceType.QYWX_WEBHOOK;
  for (const [serviceType, address] of candidates) {
    if (!address && !robot) continue;
    const channel = await firstEnabled(ctx, serviceType);
    if (channel) return { channel, address: address ?? null };
  }
  throw new DeliveryError(DeliveryErrorCode.NoChannel, candidates.map(([type]) => type).join(' / '));
}

async function send(ctx: Ctx, row: MessageRow, route: Route): Promise<void> {
  const type = route.channel.serviceType as MessageServiceType;
  if (type === MessageServiceType.SITE_MESSAGE) {
    if (!row.recipientId) throw new DeliveryError(DeliveryErrorCode.NoRecipient);
    return;
  }
  const settings = JSON.parse(route.channel.config) as ChannelSettings;
  const params = row.params ? (JSON.parse(row.params) as Record<string, string>) : {};
  await senders[type](settings, { title: row.title, content: row.content, address: route.address, params }, outboundPolicy(ctx.config));
}

/** Delivers a claimed message (status `sending`, attempts counted) and stores the outcome. */
export async function deliver(ctx: Ctx, row: MessageRow, maxAttempts = MAX_ATTEMPTS): Promise<MessageRow> {
  const db = outboxDb(ctx.db);
  let route: Route | undefined;
  let changes: Partial<MessageRow>;
  try {
    route = await routeOf(ctx, row);
    await send(ctx, row, route);
    const site = route.channel.serviceType === MessageServiceType.SITE_MESSAGE;
    changes = { status: site ? InboxStatus.Unread : DeliveryStatus.Sent, sentAt: ctx.now(), errorCode: null, error: null, nextAttemptAt: null };
  } catch (error) {
    const failure = error instanceof DeliveryError ? error : new DeliveryError(DeliveryErrorCode.Failed);
    if (!(error instanceof DeliveryError)) console.error('message delivery failed', error);
    const retry = row.attempts < maxAttempts;
    changes = {
      status: retry ? DeliveryStatus.Queued : DeliveryStatus.Failed,
      errorCode: failure.code,
      error: failure.detail?.slice(0, 500) ?? null,
      nextAttemptAt: retry ? ctx.now() + backoffMs(row.attempts) : null,
    };
  }
  if (route)
    Object.assign(changes, { channelId: route.channel.id, serviceType: route.channel.serviceType, vendor: route.channel.vendor, address: route.address });
  await db.updateTable('messages').set(changes).where('id', '=', row.id).execute();
  return { ...row, ...changes };
}

/** Takes a due message for this process (atomically: one claimant wins); answers it, counted. */
export async function claim(ctx: Ctx, id: string): Promise<MessageRow | undefined> {
  const db = outboxDb(ctx.db);
  const now = ctx.now();
  const claimed = await db
    .updateTable('messages')
    .set((eb) => ({ status: DeliveryStatus.Sending, attempts: eb('attempts', '+', 1), nextAttemptAt: now + CLAIM_LEASE_MS }))
    .where('id', '=', id)
    .where('status', 'in', [DeliveryStatus.Queued, DeliveryStatus.Sending])
    .where((eb) => eb.or([eb('nextAttemptAt', 'is', null), eb('nextAttemptAt', '<=', now)]))
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) return undefined;
  return db.selectFrom('messages').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Who wrote a message: the console itself (codes, notices: senderId null) or a person (senderId set). */
export type MessageSource = 'console' | 'people';

/** Ids of the source's messages due for an attempt, oldest first. */
export async function dueMessages(ctx: Ctx, source: MessageSource, limit: number): Promise<string[]> {
  const now = ctx.now();
  const rows = await outboxDb(ctx.db)
    .selectFrom('messages')
    .select('id')
    .where('status', 'in', [DeliveryStatus.Queued, DeliveryStatus.Sending])
    .where((eb) => eb.or([eb('nextAttemptAt', 'is', null), eb('nextAttemptAt', '<=', now)]))
    .where('senderId', source === 'console' ? 'is' : 'is not', null)
    .orderBy('pushTime')
    .limit(limit)
    .execute();
  return rows.map((row) => row.id);
}
