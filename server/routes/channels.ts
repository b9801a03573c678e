// Message channels (permission 3): create, edit, delete, "send test" and the delivery log;
// enabled channels as options for operators sending a message. The work is done by
// server/services/channels.ts.
import * as v from 'valibot';
import type { FastifyPluginAsync } from 'fastify';
import { defineRoute, type RouteOptions } from '../http/route';
import { idParams, okAnswer, pageQuery } from '../../src/core/schemas/common';
import {
  channel,
  channelBody,
  channelList,
  channelOption,
  channelTestBody,
  channelUpdateBody,
  delivery,
  deliveryList,
  deliveryListQuery,
} from '../../src/core/schemas/messaging';
import { Permission } from '../../src/core/permission-codes';
import * as channels from '../services/channels';

const tags = ['Channels'];

export const channelRoutes: FastifyPluginAsync<RouteOptions> = async (app, { gate, ctx }) => {
  defineRoute(app, gate, {
    method: 'GET',
    url: '/channels',
    tags,
    access: Permission.Settings,
    summary: 'Message channels, paged (secrets masked)',
    query: pageQuery,
    response: channelList,
    handler: ({ query }) => channels.listChannels(ctx, query),
  });

  defineRoute(app, gate, {
    method: 'GET',
    url: '/channels/options',
    tags,
    access: Permission.Operations,
    summary: 'Enabled channels to send a message through (no settings)',
    response: v.array(channelOption),
    handler: () => channels.channelOptions(ctx),
  });

  defineRoute(app, gate, {
    method: 'POST',
    url: '/channels',
    idempotent: true,
    tags,
    access: Permission.Settings,
    summary: 'Create a message channel',
    body: channelBody,
    response: channel,
    handler: ({ actor, body, raw }) => channels.createChannel(ctx, actor, body, raw.ip),
  });

  defineRoute(app, gate, {
    method: 'PUT',
    url: '/channels/:id',
    tags,
    access: Permission.Settings,
    summary: 'Update a message channel (secrets left out are kept; 409 when version is stale)',
    params: idParams,
    body: channelUpdateBody,
    response: channel,
    handler: ({ actor, params, body, raw }) => channels.updateChannel(ctx, actor, params.id, body, raw.ip),
  });

  defineRoute(app, gate, {
    method: 'DELETE',
    url: '/channels/:id',
    tags,
    access: Permission.Settings,
    summary: 'Delete a message channel',
    params: idParams,
    response: okAnswer,
    handler: ({ actor, params, raw }) => channels.deleteChannel(ctx, actor, params.id, raw.ip),
  });

  defineRoute(app, gate, {
    method: 'POST',
    url: '/channels/:id/test',
    tags,
    access: Permission.Settings,
    summary: 'Send a test message through the channel now (to the address given; an in-site test goes to my inbox); answers its delivery',
    params: idParams,
    body: channelTestBody,
    response: delivery,
    handler: ({ actor, params, body }) => channels.sendTestMessage(ctx, actor, params.id, body),
  });

  defineRoute(app, gate, {
    method: 'GET',
    url: '/channels/deliveries',
    tags,
    access: Permission.Settings,
    summary: 'The delivery log: outgoing messages with their status, newest first (texts are not shown)',
    query: deliveryListQuery,
    response: deliveryList,
    handler: ({ query }) => channels.deliveries(ctx, query),
  });
};
