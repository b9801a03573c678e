// Outbound webhooks: endpoints that receive signed events (Standard Webhooks) of the platform or of
// one tenant's subtree, the events they may choose, and their delivery log.
import * as v from 'valibot';
import { visibleCharactersOnly } from '../validation/visible-text';
import { rules } from '../validation';
import { id, pageQueryFields, pagedList, version } from './common';
import { deliveryErrorCode } from './delivery-error';

/** The events an endpoint may receive; each is derived from an audit record (server/webhooks/events.ts). */
export const webhookEvents = [
  'user.created',
  'user.updated',
  'user.disabled',
  'user.deleted',
  'user.signed_in',
  'user.sign_in_failed',
  'user.locked',
  'user.unlocked',
  'user.signed_out',
  'user.password_changed',
  'user.roles_changed',
  'app.created',
  'app.updated',
  'app.deleted',
  'tenant.created',
  'tenant.updated',
  'tenant.deleted',
  'role.created',
  'role.updated',
  'role.deleted',
] as const;
export type WebhookEvent = (typeof webhookEvents)[number];

/** The event "Send test" posts; no endpoint subscribes to it. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

/** Where a delivery is: waiting (also between retries), being posted, delivered, given up. */
export const WebhookDeliveryStatus = { Queued: 'queued', Sending: 'sending', Delivered: 'delivered', Failed: 'failed' } as const;
export type WebhookDeliveryStatus = (typeof WebhookDeliveryStatus)[keyof typeof WebhookDeliveryStatus];

const WEBHOOK_URL_MAX = 2000;

/** An http(s) URL without credentials or fragment; whether its address may be reached is the
 *  server's check (server/http/outbound-address.ts), at save and at send time. */
const webhookUrl = v.pipe(
  rules.url,
  v.maxLength(WEBHOOK_URL_MAX, `rule.maxLength?max=${WEBHOOK_URL_MAX}`),
  v.check((value) => {
    try {
      const url = new URL(value);
      return /^https?:$/.test(url.protocol) && !url.username && !url.password && !url.hash;
    } catch {
      return false;
    }
  }, 'rule.url'),
);

const eventList = v.pipe(
  v.array(v.picklist(webhookEvents, 'rule.webhookEvents'), 'rule.webhookEvents'),
  v.minLength(1, 'rule.webhookEvents'),
  v.maxLength(webhookEvents.length, 'rule.webhookEvents'),
  v.transform((events) => [...new Set(events)]),
);

const description = v.optional(v.pipe(v.string('rule.required'), v.maxLength(200, 'rule.maxLength?max=200'), visibleCharactersOnly('rule.visibleCharacters')));

/** POST /webhooks: the tenant whose subtree's events it receives (none: every event, platform
 *  administrators only; a tenant administrator's default is their own tenant). */
export const webhookCreateBody = v.object({
  url: webhookUrl,
  description,
  events: eventList,
  enabled: v.optional(v.boolean('rule.required')),
  tenantId: v.optional(v.nullable(id)),
});

export const webhookUpdateBody = v.object({
  url: v.optional(webhookUrl),
  description,
  events: v.optional(eventList),
  enabled: v.optional(v.boolean('rule.required')),
  version,
});

export const webhook = v.object({
  id: v.string(),
  tenantId: v.nullable(v.string()),
  url: v.string(),
  description: v.string(),
  events: v.array(v.string()),
  enabled: v.boolean(),
  version: v.number(),
  createdAt: v.number(),
  updatedAt: v.number(),
  /** When the signing secret was last replaced; the previous one still signs until `previousSecretUntil`. */
  secretRotatedAt: v.number(),
  previousSecretUntil: v.nullable(v.number()),
});
export type Webhook = v.InferOutput<typeof webhook>;

export const webhookList = pagedList(webhook);
export const webhookListQuery = v.object({ ...pageQueryFields, tenantId: v.optional(id) });

/** The signing secret (`whsec_…`), answered once: at creation and at each rotation. */
export const webhookWithSecret = v.object({ ...webhook.entries, secret: v.string() });
export const webhookSecret = v.object({ secret: v.string(), previousSecretUntil: v.number() });

const webhookAttempt = v.object({
  at: v.number(),
  durationMs: v.number(),
  /** The receiver's HTTP status; null when no answer came (refused address, network, timeout). */
  statusCode: v.nullable(v.number()),
  errorCode: deliveryErrorCode,
  /** The raw detail of the failure (src/core/schemas/delivery-error.ts). */
  error: v.nullable(v.string()),
  /** The start of the receiver's answer (bounded). */
  answer: v.nullable(v.string()),
});

export const webhookDelivery = v.object({
  id: v.string(),
  webhookId: v.string(),
  /** The webhook-id header: the same on every attempt, for the receiver's deduplication. */
  messageId: v.string(),
  eventType: v.string(),
  payload: v.string(),
  status: v.picklist(Object.values(WebhookDeliveryStatus)),
  attempts: v.number(),
  nextAttemptAt: v.nullable(v.number()),
  createdAt: v.number(),
  finishedAt: v.nullable(v.number()),
  attemptLog: v.array(webhookAttempt),
});
export type WebhookDelivery = v.InferOutput<typeof webhookDelivery>;

export const webhookDeliveryList = pagedList(webhookDelivery);
/** One delivery of one endpoint (POST …/deliveries/:deliveryId/redeliver). */
export const webhookDeliveryParams = v.object({ id, deliveryId: id });
export const webhookDeliveryQuery = v.object({ ...pageQueryFields, status: v.optional(v.picklist(Object.values(WebhookDeliveryStatus), 'rule.status')) });
