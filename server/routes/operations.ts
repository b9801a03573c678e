// Operations (code 4) and self-service around them: menu plans and the §7 multi-app menu list,
// message channels, in-site messages, and the audit log.
import type { FastifyInstance } from 'fastify';
import type { Selectable } from 'kysely';
import type { Ctx } from '../context';
import type { AuditTable, ChannelTable, MenuPlanTable, MessageTable } from '../db/tables';
import { defineRoute, type Gate } from '../http/route';
import { idParams, okAnswer } from '../../src/core/schemas/common';
import {
  auditList, auditListQuery, channel, channelBody, channelList, channelUpdateBody, countAnswer, menuListQuery, menuPlan, menuPlanBody,
  menuPlanList, menuPlanUpdateBody, messageList, messageListQuery, messageSendBody, multiAppMenu, multiAppMenuQuery,
} from '../../src/core/schemas/resources';
import { pageQuery } from '../../src/core/schemas/common';
import { MessageServiceType } from '../../src/core/enums';
import { canManageUser, requirePlatform } from '../auth/scope';
import { newId } from '../auth/secrets';
import { contains, paginate } from '../http/paging';
import { fieldError, notFound } from '../http/errors';
import { updateVersioned } from '../db/versioned';

type MenuRow = Selectable<MenuPlanTable>;
const toMenuPlan = (row: MenuRow) => ({ ...row, items: JSON.parse(row.items) });

/** Channel settings that are secrets are never answered back; sending the mask keeps the stored value. */
const SECRET_KEY = /pass|secret|token|key/i;
const MASK = '********';
const toChannel = (row: Selectable<ChannelTable>) => ({
  ...row,
  enabled: row.enabled === 1,
  config: Object.fromEntries(Object.entries(JSON.parse(row.config) as Record<string, string>).map(([name, value]) => [name, SECRET_KEY.test(name) ? MASK : value])),
});
const toMessage = ({ recipientId: _recipient, address: _address, createdAt: _created, ...row }: Selectable<MessageTable>) => row;

function menuRoutes(app: FastifyInstance, gate: Gate, ctx: Ctx): void {
  const tags = ['Menus'];
  const planOf = async (id: string) => {
    const row = await ctx.db.selectFrom('menuPlans').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('Menu plan');
    return row;
  };
  const appExists = async (appId: string | null | undefined) => {
    if (appId && !(await ctx.db.selectFrom('apps').select('id').where('id', '=', appId).executeTakeFirst())) throw fieldError([{ field: 'appId', rule: 'rule.appId' }]);
  };

  defineRoute(app, gate, {
    method: 'GET', url: '/menu/app/assignment/public/multi_app_menu/list', tags, access: '0',
    summary: 'The menus of every app (and the global menu), for the console and portals', query: multiAppMenuQuery, response: multiAppMenu,
    handler: async ({ query }) => {
      let select = ctx.db.selectFrom('menuPlans').leftJoin('apps', 'apps.id', 'menuPlans.appId')
        .select(['menuPlans.id', 'menuPlans.appId', 'menuPlans.items', 'menuPlans.name', 'apps.name as appName']);
      if (query.appId) select = select.where('menuPlans.appId', '=', query.appId);
      const rows = await select.orderBy('apps.name').orderBy('menuPlans.name').limit(500).execute();
      return rows.map((row) => ({ appId: row.appId, appName: row.appName ?? row.name, planId: row.id, menus: JSON.parse(row.items) }));
    },
  });

  defineRoute(app, gate, {
    method: 'GET', url: '/menu-plans', tags, access: '4', summary: 'Menu plans, paged', query: menuListQuery, response: menuPlanList,
    handler: async ({ query }) => {
      let select = ctx.db.selectFrom('menuPlans').selectAll();
      if (query.appId) select = select.where('appId', '=', query.appId);
      if (query.searchProp && query.searchValue) select = select.where(contains(ctx.engine, query.searchProp, query.searchValue));
      return paginate(select.orderBy('name'), query, toMenuPlan);
    },
  });

  defineRoute(app, gate, {
    method: 'GET', url: '/menu-plans/:id', tags, access: '4', summary: 'One menu plan', params: idParams, response: menuPlan,
    handler: async ({ params }) => toMenuPlan(await planOf(params.id)),
  });

  defineRoute(app, gate, {
    method: 'POST', url: '/menu-plans', tags, access: '4', summary: 'Create a menu plan (platform administrators)', body: menuPlanBody, response: menuPlan,
    handler: async ({ actor, body, raw }) => {
      requirePlatform(actor);
      await appExists(body.appId);
      const now = ctx.now();
      const row: MenuRow = { id: newId(), appId: body.appId ?? null, name: body.name, description: body.description || null, items: JSON.stringify(body.items), version: 1, createdAt: now, updatedAt: now };
      await ctx.db.insertInto('menuPlans').values(row).execute();
      await ctx.audit.record({ action: 'menu.create', actor, target: { type: 'menu', id: row.id }, ip: raw.ip, detail: { name: row.name } });
      return toMenuPlan(row);
    },
  });

  defineRoute(app, gate, {
    method: 'PUT', url: '/menu-plans/:id', tags, access: '4', summary: 'Update a menu plan (platform administrators; 409 when version is stale)',
    params: idParams, body: menuPlanUpdateBody, response: menuPlan,
    handler: async ({ actor, params, body, raw }) => {
      requirePlatform(actor);
      const current = await planOf(params.id);
      await appExists(body.appId);
      const { version, items, description, ...fields } = body;
      const changes = { ...fields, ...(items ? { items: JSON.stringify(items) } : {}), ...(description !== undefined ? { description: description || null } : {}) };
      await updateVersioned(ctx.db, 'menuPlans', current.id, version, changes, ctx.now());
      await ctx.audit.record({ action: 'menu.update', actor, target: { type: 'menu', id: current.id }, ip: raw.ip, detail: { fields: Object.keys(changes) } });
      return toMenuPlan(await planOf(current.id));
    },
  });

  defineRoute(app, gate, {
    method: 'DELETE', url: '/menu-plans/:id', tags, access: '4', summary: 'Delete a menu plan (platform administrators)', params: idParams, response: okAnswer,
    handler: async ({ actor, params, raw }) => {
      requirePlatform(actor);
      const current = await planOf(params.id);
      await ctx.db.deleteFrom('menuPlans').where('id', '=', current.id).execute();
      await ctx.audit.record({ action: 'menu.delete', actor, target: { type: 'menu', id: current.id }, ip: raw.ip, detail: { name: current.name } });
      return null;
    },
  });
}

function channelRoutes(app: FastifyInstance, gate: Gate, ctx: Ctx): void {
  const tags = ['Channels'];
  const channelOf = async (id: string) => {
    const row = await ctx.db.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('Channel');
    return row;
  };

  defineRoute(app, gate, {
    method: 'GET', url: '/channels', tags, access: '3', summary: 'Message channels, paged (secrets masked)', query: pageQuery, response: channelList,
    handler: ({ query }) => paginate(ctx.db.selectFrom('channels').selectAll().orderBy('name'), query, toChannel),
  });

  defineRoute(app, gate, {
    method: 'POST', url: '/channels', tags, access: '3', summary: 'Create a message channel', body: channelBody, response: channel,
    handler: async ({ actor, body, raw }) => {
      const now = ctx.now();
      const row = { id: newId(), name: body.name, serviceType: body.serviceType, vendor: body.vendor, config: JSON.stringify(body.config), enabled: body.enabled === false ? 0 : 1, version: 1, createdAt: now, updatedAt: now };
      await ctx.db.insertInto('channels').values(row).execute();
      await ctx.audit.record({ action: 'channel.create', actor, target: { type: 'channel', id: row.id }, ip: raw.ip, detail: { name: row.name, serviceType: row.serviceType } });
      return toChannel(row);
    },
  });

  defineRoute(app, gate, {
    method: 'PUT', url: '/channels/:id', tags, access: '3', summary: 'Update a message channel (409 when version is stale)', params: idParams, body: channelUpdateBody, response: channel,
    handler: async ({ actor, params, body, raw }) => {
      const current = await channelOf(params.id);
      const { version, config, enabled, ...fields } = body;
      const stored = JSON.parse(current.config) as Record<string, string>;
      const merged = config && Object.fromEntries(Object.entries(config).map(([name, value]) => [name, value === MASK ? stored[name] ?? '' : value]));
      const changes = { ...fields, ...(merged ? { config: JSON.stringify(merged) } : {}), ...(enabled !== undefined ? { enabled: enabled ? 1 : 0 } : {}) };
      await updateVersioned(ctx.db, 'channels', current.id, version, changes, ctx.now());
      await ctx.audit.record({ action: 'channel.update', actor, target: { type: 'channel', id: current.id }, ip: raw.ip, detail: { fields: Object.keys(changes) } });
      return toChannel(await channelOf(current.id));
    },
  });

  defineRoute(app, gate, {
    method: 'DELETE', url: '/channels/:id', tags, access: '3', summary: 'Delete a message channel', params: idParams, response: okAnswer,
    handler: async ({ actor, params, raw }) => {
      const current = await channelOf(params.id);
      await ctx.db.deleteFrom('channels').where('id', '=', current.id).execute();
      await ctx.audit.record({ action: 'channel.delete', actor, target: { type: 'channel', id: current.id }, ip: raw.ip, detail: { name: current.name } });
      return null;
    },
  });
}

function messageRoutes(app: FastifyInstance, gate: Gate, ctx: Ctx): void {
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

function auditRoutes(app: FastifyInstance, gate: Gate, ctx: Ctx): void {
  defineRoute(app, gate, {
    method: 'GET', url: '/audit', tags: ['Audit'], access: '4', summary: 'Security events, newest first (a tenant administrator sees their subtree’s)',
    query: auditListQuery, response: auditList,
    handler: ({ actor, query }) => {
      let select = ctx.db.selectFrom('auditLog').selectAll();
      if (!actor.platformAdmin) {
        const subtree = actor.tenantPath ?? '/-none-/';
        select = select.where((eb) => eb('tenantId', 'in', eb.selectFrom('tenants').select('tenants.id').where('tenants.path', 'like', `${subtree}%`)));
      }
      if (query.searchProp && query.searchValue) select = select.where(contains(ctx.engine, query.searchProp, query.searchValue));
      return paginate(select.orderBy('at', 'desc').orderBy('id', 'desc'), query, (row: Selectable<AuditTable>) => ({
        ...row, success: row.success === 1, detail: JSON.parse(row.detail),
      }));
    },
  });
}

export function operationRoutes(app: FastifyInstance, gate: Gate, ctx: Ctx): void {
  menuRoutes(app, gate, ctx);
  channelRoutes(app, gate, ctx);
  messageRoutes(app, gate, ctx);
  auditRoutes(app, gate, ctx);
}

