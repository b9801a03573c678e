// Outbound webhooks (operate/webhooks): endpoints, their signing secret, send test and the delivery log.
import { PAGING } from '../config';
import * as calls from '../contract/webhooks';
import type { CallAnswer, CallInput } from '../contract/declare';
import type { Webhook, WebhookDelivery } from '../schemas/webhooks';
import { call, callList, type CallBody } from './call';

/** A new endpoint: its URL, the events it receives and the tenant whose subtree's events it
 *  receives (null: every event, platform administrators). */
export type WebhookInput = CallBody<typeof calls.postWebhooks>;

export function list(page: number = PAGING.page, size: number = PAGING.size): Promise<CallAnswer<typeof calls.getWebhooks>> {
  return callList(calls.getWebhooks, { query: { page, size } });
}

/** Answers the signing secret this once. Silent: the form shows what went wrong. */
export function create(input: WebhookInput): Promise<CallAnswer<typeof calls.postWebhooks>> {
  return call(calls.postWebhooks, { body: input }, { silent: true });
}

export function update(id: string, changes: CallBody<typeof calls.putWebhooksById>): Promise<Webhook> {
  return call(calls.putWebhooksById, { params: { id }, body: changes }, { silent: true });
}

export function remove(id: string): Promise<null> {
  return call(calls.deleteWebhooksById, { params: { id } });
}

/** A new signing secret, answered this once (the previous one still signs for a day). */
export function rotateSecret(id: string): Promise<CallAnswer<typeof calls.postWebhooksSecret>> {
  return call(calls.postWebhooksSecret, { params: { id } });
}

/** Posts a signed webhook.test now; answers its delivery with the outcome. */
export function sendTest(id: string): Promise<WebhookDelivery> {
  return call(calls.postWebhooksTest, { params: { id } });
}

/** Sends a delivery's event again (same payload and webhook-id); answers the new delivery. */
export function redeliver(id: string, deliveryId: string): Promise<WebhookDelivery> {
  return call(calls.postWebhooksDeliveriesRedeliver, { params: { id, deliveryId } });
}

export type DeliveryQuery = NonNullable<CallInput<typeof calls.getWebhooksDeliveries>['query']>;

export function deliveries(id: string, query: DeliveryQuery = {}): Promise<CallAnswer<typeof calls.getWebhooksDeliveries>> {
  return callList(calls.getWebhooksDeliveries, { params: { id }, query: { page: PAGING.page, size: PAGING.size, ...query } });
}
