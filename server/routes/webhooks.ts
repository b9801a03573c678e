// Outbound webhooks (operations, code 4): endpoints of the platform or of a tenant's subtree, the
// events each receives, its signing secret (answered once, rotated), "send test" and the delivery
// log. The work is done by server/services/webhooks.ts; deliveries by server/webhooks/.
import type { FastifyPluginAsync } from 'fastify';
import { route, type RouteOptions } from '../http/route';
import * as calls from '../../src/core/contract/webhooks';
import { Permission } from '../../src/core/permission-codes';
import * as webhooks from '../services/webhooks';

const tags = ['Webhooks'];

export const webhookRoutes: FastifyPluginAsync<RouteOptions> = async (app, { gate, ctx }) => {
  route(app, gate, calls.getWebhooks, {
    tags,
    access: Permission.Operations,
    summary: 'Webhook endpoints of my scope (a tenant administrator: those of their subtree’s tenants), newest first',
    handler: ({ actor, query }) => webhooks.listWebhooks(ctx, actor, query),
  });

  route(app, gate, calls.postWebhooks, {
    tags,
    access: Permission.Operations,
    summary:
      'Add an endpoint: the events it receives, of a tenant’s subtree (none: every event, platform administrators only). The signing secret (whsec_…) is answered this once. A URL whose address is loopback or private is refused unless the operator allows private targets',
    handler: ({ actor, body, raw }) => webhooks.createWebhook(ctx, actor, body, raw.ip),
  });

  route(app, gate, calls.getWebhooksById, {
    tags,
    access: Permission.Operations,
    summary: 'One endpoint of my scope (never its secret)',
    handler: async ({ actor, params }) => webhooks.toWebhook(await webhooks.manageableWebhook(ctx, actor, params.id)),
  });

  route(app, gate, calls.putWebhooksById, {
    tags,
    access: Permission.Operations,
    summary: 'Change an endpoint’s URL, events, description or switch (409 when version is stale)',
    handler: ({ actor, params, body, raw }) => webhooks.updateWebhook(ctx, actor, params.id, body, raw.ip),
  });

  route(app, gate, calls.deleteWebhooksById, {
    tags,
    access: Permission.Operations,
    summary: 'Remove an endpoint with its delivery log',
    handler: async ({ actor, params, raw }) => webhooks.deleteWebhook(ctx, actor, params.id, raw.ip),
  });

  route(app, gate, calls.postWebhooksSecret, {
    tags,
    access: Permission.Operations,
    summary: 'A new signing secret, answered this once; the previous one keeps signing (a second signature) for 24 hours',
    handler: ({ actor, params, raw }) => webhooks.rotateSecret(ctx, actor, params.id, raw.ip),
  });

  route(app, gate, calls.postWebhooksTest, {
    tags,
    access: Permission.Operations,
    summary: 'Post a signed webhook.test event now (one attempt) and answer its delivery with the outcome',
    handler: ({ actor, params }) => webhooks.sendTest(ctx, actor, params.id),
  });

  route(app, gate, calls.getWebhooksDeliveries, {
    tags,
    access: Permission.Operations,
    summary: 'The delivery log of an endpoint, newest first: each event’s status and attempts (time, HTTP status, error, start of the answer)',
    handler: ({ actor, params, query }) => webhooks.deliveriesOf(ctx, actor, params.id, query),
  });

  route(app, gate, calls.postWebhooksDeliveriesRedeliver, {
    tags,
    access: Permission.Operations,
    summary:
      'Send one delivery’s event again: a new delivery with the same payload and webhook-id (receivers drop a copy they already have), posted now, or queued while the endpoint is disabled',
    handler: ({ actor, params, raw }) => webhooks.redeliver(ctx, actor, params.id, params.deliveryId, raw.ip),
  });
};
