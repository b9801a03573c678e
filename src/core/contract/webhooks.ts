// Calls of server/routes/webhooks.ts (one declaration each: src/core/contract/declare.ts).
import type { CallDeclaration } from './declare';
import { idParams, okAnswer } from '../schemas/common';
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
} from '../schemas/webhooks';

/** GET /webhooks */
export const getWebhooks = { method: 'GET', path: '/webhooks', query: webhookListQuery, response: webhookList } as const satisfies CallDeclaration;

/** POST /webhooks */
export const postWebhooks = { method: 'POST', path: '/webhooks', body: webhookCreateBody, response: webhookWithSecret } as const satisfies CallDeclaration;

/** GET /webhooks/:id */
export const getWebhooksById = { method: 'GET', path: '/webhooks/:id', params: idParams, response: webhook } as const satisfies CallDeclaration;

/** PUT /webhooks/:id */
export const putWebhooksById = {
  method: 'PUT',
  path: '/webhooks/:id',
  params: idParams,
  body: webhookUpdateBody,
  response: webhook,
} as const satisfies CallDeclaration;

/** DELETE /webhooks/:id */
export const deleteWebhooksById = { method: 'DELETE', path: '/webhooks/:id', params: idParams, response: okAnswer } as const satisfies CallDeclaration;

/** POST /webhooks/:id/secret */
export const postWebhooksSecret = {
  method: 'POST',
  path: '/webhooks/:id/secret',
  params: idParams,
  response: webhookSecret,
} as const satisfies CallDeclaration;

/** POST /webhooks/:id/test */
export const postWebhooksTest = { method: 'POST', path: '/webhooks/:id/test', params: idParams, response: webhookDelivery } as const satisfies CallDeclaration;

/** GET /webhooks/:id/deliveries */
export const getWebhooksDeliveries = {
  method: 'GET',
  path: '/webhooks/:id/deliveries',
  params: idParams,
  query: webhookDeliveryQuery,
  response: webhookDeliveryList,
} as const satisfies CallDeclaration;

/** POST /webhooks/:id/deliveries/:deliveryId/redeliver */
export const postWebhooksDeliveriesRedeliver = {
  method: 'POST',
  path: '/webhooks/:id/deliveries/:deliveryId/redeliver',
  params: webhookDeliveryParams,
  response: webhookDelivery,
} as const satisfies CallDeclaration;
