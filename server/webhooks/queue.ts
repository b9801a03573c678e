// Webhook deliveries are derived from audit records, in one place: this follower of the audit log
// (server/audit.ts) turns each recorded event into one queued delivery per enabled endpoint that
// chose its type and whose tenant's subtree holds the event's tenant (a platform endpoint, with no
// tenant, takes every event), written in the event's own transaction. A disabled endpoint's
// deliveries are queued all the same and wait: the outbox posts them once it is enabled again. The outbox posts them
// (server/webhooks/deliver.ts). Events without a tenant (a failed sign-in of an unknown name, an
// app or role change) reach platform endpoints only.
import { randomUUID } from 'node:crypto';
import type { Insertable } from 'kysely';
import type { Ctx } from '../context';
import type { AuditEvent, AuditFollower } from '../audit';
import type { WebhookDeliveryTable } from '../db/tables';
import { WebhookDeliveryStatus } from '../../src/core/schemas/webhooks';
import { eventPayload, webhookEventsOf } from './events';
import { WEBHOOK_ATTEMPTS } from './deliver';

type DeliveryRow = Insertable<WebhookDeliveryTable>;

/** Rows per insert statement (well below either engine's limit of bound values). */
const INSERT_CHUNK = 500;

/** The webhook-id of a message: unique, the same on each of its attempts. */
const newMessageId = () => `msg_${randomUUID().replaceAll('-', '')}`;

/** The tenants whose subtree holds each of `tenantIds` (the ids of its materialised path). */
async function ancestorsOf(ctx: Ctx, tenantIds: string[]): Promise<Map<string, Set<string>>> {
  if (!tenantIds.length) return new Map();
  const rows = await ctx.db.selectFrom('tenants').select(['id', 'path']).where('id', 'in', tenantIds).execute();
  return new Map(rows.map((row) => [row.id, new Set(row.path.split('/').filter(Boolean))]));
}

export function deliveryRow(webhookId: string, eventType: string, payload: string, now: number, maxAttempts = WEBHOOK_ATTEMPTS): DeliveryRow {
  return {
    id: randomUUID(),
    webhookId,
    messageId: newMessageId(),
    eventType,
    payload,
    status: WebhookDeliveryStatus.Queued,
    attempts: 0,
    maxAttempts,
    nextAttemptAt: null,
    createdAt: now,
    finishedAt: null,
  };
}

/** The follower; `queued` is told after deliveries were committed (the outbox looks at once). */
export function webhookFollower(ctx: Ctx, queued: () => void): AuditFollower {
  return {
    async derive(events: readonly AuditEvent[], at: number) {
      const typed = events.map((event) => ({ event, types: webhookEventsOf(event) })).filter((item) => item.types.length);
      if (!typed.length) return undefined;
      const endpoints = (await ctx.db.selectFrom('webhooks').select(['id', 'tenantId', 'events']).execute()).map((row) => ({
        id: row.id,
        tenantId: row.tenantId,
        events: new Set(JSON.parse(row.events) as string[]),
      }));
      if (!endpoints.length) return undefined;
      const tenantIds = endpoints.some((endpoint) => endpoint.tenantId)
        ? [...new Set(typed.map((item) => item.event.tenantId).filter((id): id is string => !!id))]
        : [];
      const ancestors = await ancestorsOf(ctx, tenantIds);
      const rows: DeliveryRow[] = [];
      for (const { event, types } of typed) {
        const within = ancestors.get(event.tenantId ?? '');
        for (const type of types) {
          for (const endpoint of endpoints) {
            if (!endpoint.events.has(type)) continue;
            if (endpoint.tenantId !== null && !within?.has(endpoint.tenantId)) continue;
            rows.push(deliveryRow(endpoint.id, type, eventPayload(type, event, at), at));
          }
        }
      }
      if (!rows.length) return undefined;
      return async (db) => {
        for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
          await db
            .insertInto('webhookDeliveries')
            .values(rows.slice(start, start + INSERT_CHUNK))
            .execute();
        }
      };
    },
    written: queued,
  };
}
