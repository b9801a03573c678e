// Message channels (permission 3): create, edit, delete; secrets are never answered back.
import type { FastifyInstance } from 'fastify';
import type { Selectable } from 'kysely';
import type { Ctx } from '../context';
import type { ChannelTable } from '../db/tables';
import { defineRoute, type Gate } from '../http/route';
import { idParams, okAnswer, pageQuery } from '../../src/core/schemas/common';
import { channel, channelBody, channelList, channelUpdateBody } from '../../src/core/schemas/resources';
import { newId } from '../auth/secrets';
import { paginate } from '../http/paging';
import { notFound } from '../http/errors';
import { updateVersioned } from '../db/versioned';

/** Channel settings that are secrets are never answered back; sending the mask keeps the stored value. */
const SECRET_KEY = /pass|secret|token|key/i;
const MASK = '********';
const toChannel = (row: Selectable<ChannelTable>) => ({
  ...row,
  enabled: row.enabled === 1,
  config: Object.fromEntries(Object.entries(JSON.parse(row.config) as Record<string, string>).map(([name, value]) => [name, SECRET_KEY.test(name) ? MASK : value])),
});

export function channelRoutes(app: FastifyInstance, gate: Gate, ctx: Ctx): void {
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

