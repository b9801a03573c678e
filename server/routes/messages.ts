// Messages: my in-site inbox and message history; administrators send to users or a tenant. The
// work is done by server/services/messages.ts; queued messages are delivered by the outbox worker
// this plugin is given.
import type { FastifyPluginAsync } from 'fastify';
import { defineRoute, type RouteOptions } from '../http/route';
import { idParams, okAnswer } from '../../src/core/schemas/common';
import { countAnswer } from '../../src/core/schemas/resources';
import { historyQuery, messageList, messageListQuery, messageSendBody, sendAnswer } from '../../src/core/schemas/messaging';
import type { Outbox } from '../channels/outbox';
import { Permission } from '../../src/core/permission-codes';
import * as messages from '../services/messages';
import { answerLanguage } from '../http/language';

const tags = ['Messages'];
const access = Permission.SelfService;

export const messageRoutes: FastifyPluginAsync<RouteOptions & { outbox: Outbox }> = async (app, { gate, ctx, outbox }) => {
  defineRoute(app, gate, {
    method: 'GET',
    url: '/messages',
    tags,
    access,
    summary: 'My in-site messages (unread by default; read, or all)',
    query: messageListQuery,
    response: messageList,
    handler: ({ actor, query, raw }) => messages.inboxOf(ctx, actor, query, answerLanguage(raw.headers['accept-language'])),
  });

  defineRoute(app, gate, {
    method: 'GET',
    url: '/messages/unread/count',
    tags,
    access,
    summary: 'How many of my in-site messages are unread (the top bar badge)',
    response: countAnswer,
    handler: ({ actor }) => messages.unreadCount(ctx, actor),
  });

  defineRoute(app, gate, {
    method: 'GET',
    url: '/messages/history',
    tags,
    access,
    summary: 'Every message sent to me (in-site, email, SMS …), newest first',
    query: historyQuery,
    response: messageList,
    handler: ({ actor, query, raw }) => messages.historyOf(ctx, actor, query, answerLanguage(raw.headers['accept-language'])),
  });

  defineRoute(app, gate, {
    method: 'PUT',
    url: '/messages/:id/read',
    tags,
    access,
    summary: 'Mark one of my messages read',
    params: idParams,
    response: okAnswer,
    handler: ({ actor, params }) => messages.markRead(ctx, actor, params.id),
  });

  defineRoute(app, gate, {
    method: 'PUT',
    url: '/messages/read',
    tags,
    access,
    summary: 'Mark all my messages read',
    response: countAnswer,
    handler: ({ actor }) => messages.markAllRead(ctx, actor),
  });

  defineRoute(app, gate, {
    method: 'DELETE',
    url: '/messages/:id',
    tags,
    access,
    summary: 'Delete one of my in-site messages',
    params: idParams,
    response: okAnswer,
    handler: ({ actor, params }) => messages.deleteMessage(ctx, actor, params.id),
  });

  defineRoute(app, gate, {
    method: 'POST',
    url: '/messages',
    idempotent: true,
    tags,
    access: Permission.Operations,
    summary: 'Send a message to users and/or a tenant of my scope: in-site (no channel, or an in-site channel) or queued for a channel',
    body: messageSendBody,
    response: sendAnswer,
    handler: ({ actor, body, raw }) => messages.sendMessage(ctx, outbox, actor, body, raw.ip),
  });
};
