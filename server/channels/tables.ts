// The delivery columns that migrations 0003 and 0029 add to `messages` (the outbox and message history).
// They are typed here, beside the code that uses them, and joined to the shared row type.
import type { Generated, Kysely, Selectable } from 'kysely';
import type { Database, MessageTable } from '../db/tables';
import type { DeliveryErrorCode } from '../../src/core/schemas/delivery-error';

export interface DeliveryColumns {
  /** The channel that delivered (or will deliver) the message; null until one is chosen. */
  channelId: string | null;
  /** The last delivery error's code (migration 0029; null on rows from before it). */
  errorCode: DeliveryErrorCode | null;
  /** The last delivery error's raw detail (never a secret); on rows from before 0029, the error in English words. */
  error: string | null;
  attempts: Generated<number>;
  /** When the next attempt is due (null: now); while sending, when the claim lapses. */
  nextAttemptAt: number | null;
  sentAt: number | null;
  /** Template parameters (JSON object of texts) for SMS templates; null: title and content only. */
  params: string | null;
}

export type OutboxDatabase = Database & { messages: MessageTable & DeliveryColumns };
export type MessageRow = Selectable<OutboxDatabase['messages']>;

export const outboxDb = (db: Kysely<Database>): Kysely<OutboxDatabase> => db.withTables<{ messages: DeliveryColumns }>();

/** The columns of a message written at `now`: not read, tried or sent yet, no template parameters. */
export const freshMessage = (now: number) => ({
  pushTime: now,
  createdAt: now,
  readAt: null,
  errorCode: null,
  error: null,
  attempts: 0,
  nextAttemptAt: null,
  sentAt: null,
  params: null,
  notice: null,
});
