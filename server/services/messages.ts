// Messages: the queries and audit records behind /messages (server/routes/messages.ts). My in-site
// inbox (unread count, mark read, delete), my message history (every kind, with service type,
// vendor, push time and status); administrators send to users or a tenant of their scope, in-site
// or through a channel (queued for the outbox worker, server/channels/outbox.ts).
import type * as v from 'valibot';
import type { Insertable } from 'kysely';
import type { Ctx } from '../context';
import { afterCommit } from '../db/unit-of-work';
import type { Actor, UserRow } from '../auth/actor';
import type { PageQuery } from '../../src/core/schemas/common';
import type { messageListQuery, messageSendBody } from '../../src/core/schemas/messaging';
import { DeliveryStatus, InboxStatus } from '../../src/core/schemas/messaging';
import { MessageServiceType, Status } from '../../src/core/enums';
import { canManageTenantPath, canManageUser, scopeUsers, tenantPathOf } from '../auth/scope';
import { newId } from '../auth/secrets';
import { paginate } from '../http/paging';
import { fieldError, notFound } from '../http/errors';
import { freshMessage, outboxDb, type MessageRow, type OutboxDatabase } from '../channels/tables';
import type { Outbox } from '../channels/outbox';
import type { AnswerLanguage } from '../http/language';
import { noticeText } from '../auth/new-device-notice';

type NewMessage = Insertable<OutboxDatabase['messages']>;

/** At most this many recipients per message (a tenant subtree may be large). */
const MAX_RECIPIENTS = 5_000;

/** The one row → answer function of messages, for a reader of `language`. Texts of in-site messages
 *  only: other kinds went elsewhere (and may hold a sign-in code). The console's own notices are
 *  written in the reader's language from their facts. */
const toMessage = (language: AnswerLanguage) => (row: MessageRow) => {
  const text = (row.notice && noticeText(language, row.notice)) || row;
  return {
    id: row.id,
    serviceType: row.serviceType,
    vendor: row.vendor,
    title: text.title,
    content: row.serviceType === MessageServiceType.SITE_MESSAGE ? text.content : '',
    status: row.status,
    pushTime: row.pushTime,
    readAt: row.readAt,
    sender: row.senderName,
  };
};

/** The actor's in-site message `id`, as column values to match. */
const inSite = (actor: Actor, id: string) => ({ id, recipientId: actor.id, serviceType: MessageServiceType.SITE_MESSAGE });

const inbox = (ctx: Ctx, userId: string) =>
  outboxDb(ctx.db).selectFrom('messages').selectAll().where('recipientId', '=', userId).where('serviceType', '=', MessageServiceType.SITE_MESSAGE);

export function inboxOf(ctx: Ctx, actor: Actor, query: v.InferOutput<typeof messageListQuery>, language: AnswerLanguage) {
  let select = inbox(ctx, actor.id);
  if (query.status === 'unread') select = select.where('readAt', 'is', null);
  if (query.status === 'read') select = select.where('readAt', 'is not', null);
  return paginate(select.orderBy('pushTime', 'desc').orderBy('id'), query, toMessage(language));
}

export async function unreadCount(ctx: Ctx, actor: Actor) {
  const row = await inbox(ctx, actor.id)
    .where('readAt', 'is', null)
    .clearSelect()
    .select((eb) => eb.fn.countAll().as('count'))
    .executeTakeFirst();
  return { count: Number(row?.count ?? 0) };
}

/** Every message sent to the actor (in-site, email, SMS …), newest first. */
export const historyOf = (ctx: Ctx, actor: Actor, query: PageQuery, language: AnswerLanguage) =>
  paginate(
    outboxDb(ctx.db).selectFrom('messages').selectAll().where('recipientId', '=', actor.id).orderBy('pushTime', 'desc').orderBy('id'),
    query,
    toMessage(language),
  );

export async function markRead(ctx: Ctx, actor: Actor, id: string): Promise<null> {
  const updated = await ctx.db
    .updateTable('messages')
    .set({ readAt: ctx.now(), status: InboxStatus.Read })
    .where((eb) => eb.and(inSite(actor, id)))
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) throw notFound('Message');
  return null;
}

export async function markAllRead(ctx: Ctx, actor: Actor) {
  const updated = await ctx.db
    .updateTable('messages')
    .set({ readAt: ctx.now(), status: InboxStatus.Read })
    .where('recipientId', '=', actor.id)
    .where('serviceType', '=', MessageServiceType.SITE_MESSAGE)
    .where('readAt', 'is', null)
    .executeTakeFirst();
  return { count: Number(updated.numUpdatedRows) };
}

/** Deletes a message from the actor's inbox, recorded with the change (its title names it). */
export async function deleteMessage(ctx: Ctx, actor: Actor, id: string, ip: string): Promise<null> {
  await ctx.audit.change(async () => {
    const deleted = await ctx.db
      .deleteFrom('messages')
      .where((eb) => eb.and(inSite(actor, id)))
      .returning('title')
      .executeTakeFirst();
    if (!deleted) throw notFound('Message');
    await ctx.audit.record({
      action: 'message.delete',
      actor,
      target: { type: 'message', id, name: deleted.title },
      tenantId: actor.user.tenantId,
      ip,
    });
  });
  return null;
}

async function recipientsOf(ctx: Ctx, actor: Actor, body: { userIds?: string[]; tenantId?: string }): Promise<UserRow[]> {
  const recipients = new Map<string, UserRow>();
  const ids = [...new Set(body.userIds ?? [])];
  if (ids.length) {
    const users = await ctx.db.selectFrom('users').selectAll().where('id', 'in', ids).execute();
    const allowed = await Promise.all(users.map((user) => canManageUser(ctx, actor, user)));
    if (users.length !== ids.length || allowed.some((ok) => !ok)) throw fieldError([{ field: 'userIds', rule: 'rule.userIds' }]);
    users.forEach((user) => recipients.set(user.id, user));
  }
  if (body.tenantId) {
    const path = await tenantPathOf(ctx, body.tenantId);
    if (!path || !canManageTenantPath(actor, path)) throw fieldError([{ field: 'tenantId', rule: 'rule.id' }]);
    // Within the actor's own scope too (a tenant administrator reaches tenant users only).
    const members = await scopeUsers(actor, ctx.db.selectFrom('users').selectAll())
      .where('users.availabilityStatus', '=', Status.Enable)
      .where((eb) => eb('users.tenantId', 'in', eb.selectFrom('tenants').select('tenants.id').where('tenants.path', 'like', `${path}%`)))
      .limit(MAX_RECIPIENTS + 1)
      .execute();
    if (members.length + recipients.size > MAX_RECIPIENTS) throw fieldError([{ field: 'tenantId', rule: `rule.maxRecipients?max=${MAX_RECIPIENTS}` }]);
    members.forEach((user) => recipients.set(user.id, user));
  }
  return [...recipients.values()];
}

/** Sends a message to users and/or a tenant of the actor's scope: in-site (no channel, or an
 *  in-site channel) into the inboxes at once, otherwise queued for the outbox; audited. */
export async function sendMessage(ctx: Ctx, outbox: Outbox, actor: Actor, body: v.InferOutput<typeof messageSendBody>, ip: string) {
  const channel = body.channelId
    ? await ctx.db.selectFrom('channels').selectAll().where('id', '=', body.channelId).where('enabled', '=', 1).executeTakeFirst()
    : undefined;
  if (body.channelId && !channel) throw fieldError([{ field: 'channelId', rule: 'rule.id' }]);
  const recipients = await recipientsOf(ctx, actor, body);
  const type = (channel?.serviceType ?? MessageServiceType.SITE_MESSAGE) as MessageServiceType;
  const robot = type === MessageServiceType.DING_TALK || type === MessageServiceType.QYWX_WEBHOOK;
  const addressOf = (user: UserRow) => (type === MessageServiceType.EMAIL ? user.email : type === MessageServiceType.SMS ? user.mobilePhone : null);
  const now = ctx.now();
  const base = {
    serviceType: type,
    vendor: channel?.vendor ?? null,
    channelId: channel?.id ?? null,
    title: body.title,
    content: body.content,
    ...freshMessage(now),
    senderId: actor.id,
    senderName: actor.user.realName || actor.username,
  };
  // A robot posts once to its group chat; other kinds make one message per recipient.
  const rows: NewMessage[] = robot
    ? [{ ...base, id: newId(), recipientId: null, address: null, status: DeliveryStatus.Queued }]
    : recipients.flatMap((user): NewMessage[] => {
        // In-site: delivered into the inbox at once, in one attempt.
        if (type === MessageServiceType.SITE_MESSAGE)
          return [{ ...base, id: newId(), recipientId: user.id, address: null, status: InboxStatus.Unread, sentAt: now, attempts: 1 }];
        const address = addressOf(user);
        return address ? [{ ...base, id: newId(), recipientId: user.id, address, status: DeliveryStatus.Queued }] : [];
      });
  const skipped = robot ? 0 : recipients.length - rows.length;
  await ctx.audit.change(async () => {
    const db = outboxDb(ctx.db);
    for (let start = 0; start < rows.length; start += 500)
      await db
        .insertInto('messages')
        .values(rows.slice(start, start + 500))
        .execute();
    if (type !== MessageServiceType.SITE_MESSAGE) afterCommit(() => outbox.kick());
    await ctx.audit.record({
      action: 'message.send',
      actor,
      target: { type: 'message', id: channel?.id ?? null },
      tenantId: actor.user.tenantId,
      ip,
      detail: { recipients: recipients.length, serviceType: type, ...(skipped ? { skipped } : {}) },
    });
  });
  return { count: rows.length, skipped };
}
