// Outbound webhooks (operate/webhooks): endpoints, their signing secret, send test and the delivery log.
import { PAGING } from '../config';
import { request, requestList } from '../http';
import type { Webhook, WebhookDelivery, WebhookDeliveryStatus, WebhookEvent } from '../schemas/webhooks';
import type { PagedList } from '../types';
import { apiPath } from './path';

export interface WebhookInput {
  url: string;
  description?: string;
  events: WebhookEvent[];
  enabled?: boolean;
  /** The tenant whose subtree's events it receives; null: every event (platform administrators). */
  tenantId?: string | null;
}

export function list(page: number = PAGING.page, size: number = PAGING.size): Promise<PagedList<Webhook>> {
  return requestList<Webhook>('/webhooks', { page, size });
}

/** Answers the signing secret this once. Silent: the form shows what went wrong. */
export function create(input: WebhookInput): Promise<Webhook & { secret: string }> {
  return request<Webhook & { secret: string }>('POST', '/webhooks', { body: input, silent: true });
}

export function update(id: string, changes: Partial<Omit<WebhookInput, 'tenantId'>> & { version: number }): Promise<Webhook> {
  return request<Webhook>('PUT', apiPath`/webhooks/${id}`, { body: changes, silent: true });
}

export function remove(id: string): Promise<null> {
  return request<null>('DELETE', apiPath`/webhooks/${id}`);
}

/** A new signing secret, answered this once (the previous one still signs for a day). */
export function rotateSecret(id: string): Promise<{ secret: string; previousSecretUntil: number }> {
  return request<{ secret: string; previousSecretUntil: number }>('POST', apiPath`/webhooks/${id}/secret`);
}

/** Posts a signed webhook.test now; answers its delivery with the outcome. */
export function sendTest(id: string): Promise<WebhookDelivery> {
  return request<WebhookDelivery>('POST', apiPath`/webhooks/${id}/test`);
}

/** Sends a delivery's event again (same payload and webhook-id); answers the new delivery. */
export function redeliver(id: string, deliveryId: string): Promise<WebhookDelivery> {
  return request<WebhookDelivery>('POST', apiPath`/webhooks/${id}/deliveries/${deliveryId}/redeliver`);
}

export interface DeliveryQuery {
  page?: number;
  size?: number;
  status?: WebhookDeliveryStatus;
}

export function deliveries(id: string, query: DeliveryQuery = {}): Promise<PagedList<WebhookDelivery>> {
  return requestList<WebhookDelivery>(apiPath`/webhooks/${id}/deliveries`, { page: PAGING.page, size: PAGING.size, ...query });
}
