// In-site messages: my inbox, marking read; administrators send to users of their scope.
import type { FastifyInstance } from 'fastify';
import type { Selectable } from 'kysely';
import type { Ctx } from '../context';
import type { MessageTable } from '../db/tables';
import { defineRoute, type Gate } from '../http/route';
import { idParams, okAnswer } from '../../src/core/schemas/common';
import { countAnswer, messageList, messageListQuery, messageSendBody } from '../../src/core/schemas/resources';
import { MessageServiceType } from '../../src/core/enums';
import { canManageUser } from '../auth/scope';
import { newId } from '../auth/secrets';
import { paginate } from '../http/paging';
import { fieldError, notFound } from '../http/errors';

const toMessage = ({ recipientId: _recipient, address: _address, createdAt: _created, ...row }: Selectable<MessageTable>) => row;

export function messageRoutes(app: FastifyInstance, gate: Gate, ctx: Ctx): void {
  const tags = ['Messages'];
  const mine = (userId: string) => ctx.db.selectFrom('messages').selectAll()
    .where('recipientId', '=', userId).where('serviceType', '=', MessageServiceType.SITE_MESSAGE);

  defineRoute(app, gate, {
    method: 'GET', url: '/messages', tags, access: '0', summary: 'My in-site messages (unread by default; read = history)', query: messageListQuery, response: messageList,
    handler: ({ actor, query }) => {
      let select = mine(actor.id);
      if (query.status === 'unread') select = select.where('readAt', 'is', null);
      if (query.status === 'read') select = select.where('readAt', 'is not', null);
      return paginate(select.orderBy('pushTime', 'desc').orderBy('id'), query, toMessage);
    },
  });

  defineRoute(app, gate, {
    method: 'PUT', url: '/messages/:id/read', tags, access: '0', summary: 'Mark one of my messages read', params: idParams, response: okAnswer,
    handler: async ({ actor, params }) => {
      const updated = await ctx.db.updateTable('messages').set({ readAt: ctx.now(), status: 'read' })
        .where('id', '=', params.id).where('recipientId', '=', actor.id).where('serviceType', '=', MessageServiceType.SITE_MESSAGE).executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0) throw notFound('Message');
      return null;
    },
  });

  defineRoute(app, gate, {
    method: 'PUT', url: '/messages/read', tags, access: '0', summary: 'Mark all my messages read', response: countAnswer,
    handler: async ({ actor }) => {
      const updated = await ctx.db.updateTable('messages').set({ readAt: ctx.now(), status: 'read' })
        .where('recipientId', '=', actor.id).where('serviceType', '=', MessageServiceType.SITE_MESSAGE).where('readAt', 'is', null).executeTakeFirst();
      return { count: Number(updated.numUpdatedRows) };
    },
  });

  defineRoute(app, gate, {
    method: 'POST', url: '/messages', tags, access: '4', summary: 'Send an in-site message to users of my scope', body: messageSendBody, response: countAnswer,
    handler: async ({ actor, body, raw }) => {
      const ids = [...new Set(body.userIds)];
      const users = await ctx.db.selectFrom('users').selectAll().where('id', 'in', ids).execute();
      const allowed = await Promise.all(users.map((user) => canManageUser(ctx, actor, user)));
      if (users.length !== ids.length || allowed.some((ok) => !ok)) throw fieldError([{ field: 'userIds', rule: 'rule.userIds' }]);
      const now = ctx.now();
      await ctx.db.insertInto('messages').values(users.map((user) => ({
        id: newId(), recipientId: user.id, address: null, serviceType: MessageServiceType.SITE_MESSAGE, vendor: null,
        title: body.title, content: body.content, status: 'unread', pushTime: now, readAt: null, createdAt: now,
      }))).execute();
      await ctx.audit.record({ action: 'message.send', actor, target: { type: 'message', id: null }, tenantId: actor.user.tenantId, ip: raw.ip, detail: { recipients: ids.length } });
      return { count: users.length };
    },
  });
}

