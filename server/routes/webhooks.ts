// Outbound webhooks (operations, code 4): endpoints of the platform or of a tenant's subtree, the
// events each receives, its signing secret (answered once, rotated), "send test" and the delivery
// log. The work is done by server/services/webhooks.ts; deliveries by server/webhooks/.
import type { FastifyPluginAsync } from 'fastify';
import { defineRoute, type RouteOptions } from '../http/route';
import { Permission } from '../../src/core/permission-codes';
import { idParams, okAnswer } from '../../src/core/schemas/common';
import {
  webhook,
  webhookCreateBody,
  webhookDelivery,
  webhookDeliveryList,
  webhookDeliveryParams,
  webhookDeliveryQuery,
  webhookList,
  webhookListQuery,
  webhookSecret,
  webhookUpdateBody,
  webhookWithSecret,
} from '../../src/core/schemas/webhooks';
import * as webhooks from '../services/webhooks';

const tags = ['Webhooks'];

export const webhookRoutes: FastifyPluginAsync<RouteOptions> = async (app, { gate, ctx }) => {
  defineRoute(app, gate, {
    method: 'GET',
    url: '/webhooks',
    tags,
    access: Permission.Operations,
    summary: 'Webhook endpoints of my scope (a tenant administrator: those of their subtree’s tenants), newest first',
    query: webhookListQuery,
    response: webhookList,
    handler: ({ actor, query }) => webhooks.listWebhooks(ctx, actor, query),
  });

  defineRoute(app, gate, {
    method: 'POST',
    url: '/webhooks',
    tags,
    access: Permission.Operations,
    summary:
      'Add an endpoint: the events it receives, of a tenant’s subtree (none: every event, platform administrators only). The signing secret (whsec_…) is answered this once. A URL whose address is loopback or private is refused unless the operator allows private targets',
    body: webhookCreateBody,
    response: webhookWithSecret,
    handler: ({ actor, body, raw }) => webhooks.createWebhook(ctx, actor, body, raw.ip),
  });

  defineRoute(app, gate, {
    method: 'GET',
    url: '/webhooks/:id',
    tags,
    access: Permission.Operations,
    summary: 'One endpoint of my scope (never its secret)',
    params: idParams,
    response: webhook,
    handler: async ({ actor, params }) => webhooks.toWebhook(await webhooks.manageableWebhook(ctx, actor, params.id)),
  });

  defineRoute(app, gate, {
    method: 'PUT',
    url: '/webhooks/:id',
    tags,
    access: Permission.Operations,
    summary: 'Change an endpoint’s URL, events, description or switch (409 when version is stale)',
    params: idParams,
    body: webhookUpdateBody,
    response: webhook,
    handler: ({ actor, params, body, raw }) => webhooks.updateWebhook(ctx, actor, params.id, body, raw.ip),
  });

  defineRoute(app, gate, {
    method: 'DELETE',
    url: '/webhooks/:id',
    tags,
    access: Permission.Operations,
    summary: 'Remove an endpoint with its delivery log',
    params: idParams,
    response: okAnswer,
    handler: async ({ actor, params, raw }) => webhooks.deleteWebhook(ctx, actor, params.id, raw.ip),
  });

  defineRoute(app, gate, {
    method: 'POST',
    url: '/webhooks/:id/secret',
    tags,
    access: Permission.Operations,
    summary: 'A new signing secret, answered this once; the previous one keeps signing (a second signature) for 24 hours',
    params: idParams,
    response: webhookSecret,
    handler: ({ actor, params, raw }) => webhooks.rotateSecret(ctx, actor, params.id, raw.ip),
  });

  defineRoute(app, gate, {
    method: 'POST',
    url: '/webhooks/:id/test',
    tags,
    access: Permission.Operations,
    summary: 'Post a signed webhook.test event now (one attempt) and answer its delivery with the outcome',
    params: idParams,
    response: webhookDelivery,
    handler: ({ actor, params }) => webhooks.sendTest(ctx, actor, params.id),
  });

  defineRoute(app, gate, {
    method: 'GET',
    url: '/webhooks/:id/deliveries',
    tags,
    access: Permission.Operations,
    summary: 'The delivery log of an endpoint, newest first: each event’s status and attempts (time, HTTP status, error, start of the answer)',
    params: idParams,
    query: webhookDeliveryQuery,
    response: webhookDeliveryList,
    handler: ({ actor, params, query }) => webhooks.deliveriesOf(ctx, actor, params.id, query),
  });

  defineRoute(app, gate, {
    method: 'POST',
    url: '/webhooks/:id/deliveries/:deliveryId/redeliver',
    tags,
    access: Permission.Operations,
    summary:
      'Send one delivery’s event again: a new delivery with the same payload and webhook-id (receivers drop a copy they already have), posted now, or queued while the endpoint is disabled',
    params: webhookDeliveryParams,
    response: webhookDelivery,
    handler: ({ actor, params, raw }) => webhooks.redeliver(ctx, actor, params.id, params.deliveryId, raw.ip),
  });
};
