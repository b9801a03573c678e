// Message channels (permission 3): create, edit, delete, "send test" and the delivery log;
// enabled channels as options for operators sending a message. The work is done by
// server/services/channels.ts.
import type { FastifyPluginAsync } from 'fastify';
import { route, type RouteOptions } from '../http/route';
import * as calls from '../../src/core/contract/channels';
import { Permission } from '../../src/core/permission-codes';
import * as channels from '../services/channels';

const tags = ['Channels'];

export const channelRoutes: FastifyPluginAsync<RouteOptions> = async (app, { gate, ctx }) => {
  route(app, gate, calls.getChannels, {
    tags,
    access: Permission.Settings,
    summary: 'Message channels, paged (secrets masked)',
    handler: ({ query }) => channels.listChannels(ctx, query),
  });

  route(app, gate, calls.getChannelsOptions, {
    tags,
    access: Permission.Operations,
    summary: 'Enabled channels to send a message through (no settings)',
    handler: () => channels.channelOptions(ctx),
  });

  route(app, gate, calls.postChannels, {
    idempotent: true,
    tags,
    access: Permission.Settings,
    summary: 'Create a message channel',
    handler: ({ actor, body, raw }) => channels.createChannel(ctx, actor, body, raw.ip),
  });

  route(app, gate, calls.putChannelsById, {
    tags,
    access: Permission.Settings,
    summary: 'Update a message channel (secrets left out are kept; 409 when version is stale)',
    handler: ({ actor, params, body, raw }) => channels.updateChannel(ctx, actor, params.id, body, raw.ip),
  });

  route(app, gate, calls.deleteChannelsById, {
    tags,
    access: Permission.Settings,
    summary: 'Delete a message channel',
    handler: ({ actor, params, raw }) => channels.deleteChannel(ctx, actor, params.id, raw.ip),
  });

  route(app, gate, calls.postChannelsTest, {
    tags,
    access: Permission.Settings,
    summary: 'Send a test message through the channel now (to the address given; an in-site test goes to my inbox); answers its delivery',
    handler: ({ actor, params, body }) => channels.sendTestMessage(ctx, actor, params.id, body),
  });

  route(app, gate, calls.getChannelsDeliveries, {
    tags,
    access: Permission.Settings,
    summary: 'The delivery log: outgoing messages with their status, newest first (texts are not shown)',
    handler: ({ query }) => channels.deliveries(ctx, query),
  });
};
