// Messages: my in-site inbox and message history; administrators send to users or a tenant. The
// work is done by server/services/messages.ts; queued messages are delivered by the outbox worker
// this plugin is given.
import type { FastifyPluginAsync } from 'fastify';
import { route, type RouteOptions } from '../http/route';
import * as calls from '../../src/core/contract/messages';
import type { Outbox } from '../channels/outbox';
import { Permission } from '../../src/core/permission-codes';
import * as messages from '../services/messages';
import { answerLanguage } from '../http/language';

const tags = ['Messages'];
const access = Permission.SelfService;

export const messageRoutes: FastifyPluginAsync<RouteOptions & { outbox: Outbox }> = async (app, { gate, ctx, outbox }) => {
  route(app, gate, calls.getMessages, {
    tags,
    access,
    summary: 'My in-site messages (unread by default; read, or all)',
    handler: ({ actor, query, raw }) => messages.inboxOf(ctx, actor, query, answerLanguage(raw.headers['accept-language'])),
  });

  route(app, gate, calls.getMessagesUnreadCount, {
    tags,
    access,
    summary: 'How many of my in-site messages are unread (the top bar badge)',
    handler: ({ actor }) => messages.unreadCount(ctx, actor),
  });

  route(app, gate, calls.getMessagesHistory, {
    tags,
    access,
    summary: 'Every message sent to me (in-site, email, SMS …), newest first',
    handler: ({ actor, query, raw }) => messages.historyOf(ctx, actor, query, answerLanguage(raw.headers['accept-language'])),
  });

  route(app, gate, calls.putMessagesByIdRead, {
    tags,
    access,
    summary: 'Mark one of my messages read',
    handler: ({ actor, params }) => messages.markRead(ctx, actor, params.id),
  });

  route(app, gate, calls.putMessagesRead, {
    tags,
    access,
    summary: 'Mark all my messages read',
    handler: ({ actor }) => messages.markAllRead(ctx, actor),
  });

  route(app, gate, calls.deleteMessagesById, {
    tags,
    access,
    summary: 'Delete one of my in-site messages',
    handler: ({ actor, params, raw }) => messages.deleteMessage(ctx, actor, params.id, raw.ip),
  });

  route(app, gate, calls.postMessages, {
    idempotent: true,
    tags,
    access: Permission.Operations,
    summary: 'Send a message to users and/or a tenant of my scope: in-site (no channel, or an in-site channel) or queued for a channel',
    handler: ({ actor, body, raw }) => messages.sendMessage(ctx, outbox, actor, body, raw.ip),
  });
};
