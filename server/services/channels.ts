// Message channels: the queries and audit records behind /channels (server/routes/channels.ts).
// Secrets are write-only: answered as a mask, kept when an update leaves them out or sends the
// mask. The outbox worker (server/channels/) delivers through them.
import type * as v from 'valibot';
import type { Selectable } from 'kysely';
import type { Ctx } from '../context';
import { changeDetail, changedFields } from '../audit-changes';
import type { ChannelTable } from '../db/tables';
import type { Actor } from '../auth/actor';
import type { channelBody, channelTestBody, channelUpdateBody, deliveryListQuery } from '../../src/core/schemas/messaging';
import type { PageQuery } from '../../src/core/schemas/common';
import type { DeliveryErrorCode } from '../../src/core/schemas/delivery-error';
import { channelConfigSchema, channelFields, DeliveryStatus, SECRET_MASK } from '../../src/core/schemas/messaging';
import { MessageServiceType } from '../../src/core/enums';
import { validate } from '../../src/core/validation';
import { newId } from '../auth/secrets';
import { paginate } from '../http/paging';
import { fieldError, notFound } from '../http/errors';
import { removedOnce } from '../db/removal';
import { updateVersioned } from '../db/versioned';
import { CLAIM_LEASE_MS, deliver } from '../channels/deliver';
import { freshMessage, outboxDb } from '../channels/tables';

type ChannelRow = Selectable<ChannelTable>;
type Settings = Record<string, string>;

const secretNames = (type: string) => new Set<string>(channelFields[type as MessageServiceType].filter((field) => field.secret).map((field) => field.name));

/** The one row → answer function of channels (secrets masked). */
const toChannel = (row: ChannelRow) => {
  const secrets = secretNames(row.serviceType);
  const settings = JSON.parse(row.config) as Settings;
  return {
    ...row,
    serviceType: row.serviceType as MessageServiceType,
    enabled: row.enabled === 1,
    config: Object.fromEntries(Object.entries(settings).map(([name, value]) => [name, secrets.has(name) && value ? SECRET_MASK : value])),
  };
};

/** The one row → answer function of the delivery log (never a message's text). */
function toDelivery(row: {
  id: string;
  channelId: string | null;
  channelName?: string | null;
  recipientName?: string | null;
  serviceType: string;
  vendor: string | null;
  address: string | null;
  title: string;
  status: string;
  errorCode: DeliveryErrorCode | null;
  error: string | null;
  attempts: number;
  pushTime: number;
  sentAt: number | null;
}) {
  const { id, channelId, serviceType, vendor, address, title, status, errorCode, error, attempts, pushTime, sentAt } = row;
  return {
    id,
    channelId,
    channelName: row.channelName ?? null,
    recipientName: row.recipientName ?? null,
    serviceType,
    vendor,
    address,
    title,
    status,
    errorCode,
    error,
    attempts,
    pushTime,
    sentAt,
  };
}

/** The settings to store: `given` with every secret it leaves out (or masks) taken from `stored`;
 *  empty optional settings and unknown ones are dropped. Validated against the service type's settings (400 names
 *  `config.<setting>`). */
function settingsToStore(type: MessageServiceType, given: Settings, stored: Settings): Settings {
  const secrets = secretNames(type);
  const merged: Settings = {};
  for (const [name, value] of Object.entries(given)) if (!(secrets.has(name) && value === SECRET_MASK)) merged[name] = value;
  for (const name of secrets) if (merged[name] === undefined && stored[name]) merged[name] = stored[name];
  const result = validate(channelConfigSchema(type), merged);
  if (!result.success) throw fieldError(result.fields.map((field) => ({ ...field, field: field.field ? `config.${field.field}` : 'config' })));
  return Object.fromEntries(Object.entries(result.output as Settings).filter(([, value]) => value !== undefined && value !== ''));
}

async function channelOf(ctx: Ctx, id: string): Promise<ChannelRow> {
  const row = await ctx.db.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound('Channel');
  return row;
}

export const listChannels = (ctx: Ctx, query: PageQuery) => paginate(ctx.db.selectFrom('channels').selectAll().orderBy('name').orderBy('id'), query, toChannel);

/** The enabled channels (no settings) a message may be sent through besides the in-site inbox, which needs no channel:
 *  an in-site channel delivers the same (POST /messages still takes one), and listed beside the
 *  inbox it read as the inbox twice. */
export const channelOptions = (ctx: Ctx) =>
  ctx.db
    .selectFrom('channels')
    .select(['id', 'name', 'serviceType', 'vendor'])
    .where('enabled', '=', 1)
    .where('serviceType', '!=', MessageServiceType.SITE_MESSAGE)
    .orderBy('name')
    .orderBy('id')
    .limit(200)
    .$narrowType<{ serviceType: MessageServiceType }>()
    .execute();

export async function createChannel(ctx: Ctx, actor: Actor, body: v.InferOutput<typeof channelBody>, ip: string) {
  const now = ctx.now();
  const config = settingsToStore(body.serviceType, body.config, {});
  const row: ChannelRow = {
    id: newId(),
    name: body.name,
    serviceType: body.serviceType,
    vendor: body.vendor,
    config: JSON.stringify(config),
    enabled: body.enabled === false ? 0 : 1,
    version: 1,
    createdAt: now,
    updatedAt: now,
  };
  await ctx.audit.change(async () => {
    await ctx.db.insertInto('channels').values(row).execute();
    await ctx.audit.record({
      action: 'channel.create',
      actor,
      target: { type: 'channel', id: row.id },
      ip,
      detail: { name: row.name, serviceType: row.serviceType },
    });
  });
  return toChannel(row);
}

export async function updateChannel(ctx: Ctx, actor: Actor, id: string, body: v.InferOutput<typeof channelUpdateBody>, ip: string) {
  const current = await channelOf(ctx, id);
  const { version, config, enabled, serviceType, ...fields } = body;
  const type = serviceType ?? (current.serviceType as MessageServiceType);
  const stored = type === current.serviceType ? (JSON.parse(current.config) as Settings) : {};
  // Changing the type without new settings validates the old ones against the new type.
  const settings = settingsToStore(type, config ?? stored, stored);
  const changes = { ...fields, serviceType: type, config: JSON.stringify(settings), ...(enabled !== undefined ? { enabled: enabled ? 1 : 0 } : {}) };
  await ctx.audit.change(async () => {
    await updateVersioned(ctx.db, 'channels', current.id, version, changes, ctx.now());
    await ctx.audit.record({
      action: 'channel.update',
      actor,
      target: { type: 'channel', id: current.id },
      ip,
      detail: changeDetail(
        changedFields({ ...current, config: JSON.parse(current.config) as Settings }, { ...changes, config: settings }, undefined, [
          ...[...secretNames(current.serviceType), ...secretNames(type)].map((name) => `config.${name}`),
        ]),
      ),
    });
  });
  return toChannel(await channelOf(ctx, current.id));
}

export async function deleteChannel(ctx: Ctx, actor: Actor, id: string, ip: string): Promise<null> {
  const current = await channelOf(ctx, id);
  await ctx.audit.change(async () => {
    await removedOnce(ctx.db.deleteFrom('channels').where('id', '=', current.id).executeTakeFirst(), 'Channel');
    await ctx.audit.record({ action: 'channel.delete', actor, target: { type: 'channel', id: current.id }, ip, detail: { name: current.name } });
  });
  return null;
}

/** "Send test": one message through the channel now (to the address given; an in-site test goes
 *  to the actor's inbox), answered as its delivery. */
export async function sendTestMessage(ctx: Ctx, actor: Actor, id: string, body: v.InferOutput<typeof channelTestBody>) {
  const current = await channelOf(ctx, id);
  const site = current.serviceType === MessageServiceType.SITE_MESSAGE;
  const robot = current.serviceType === MessageServiceType.DING_TALK || current.serviceType === MessageServiceType.QYWX_WEBHOOK;
  const address = body.address || null;
  if (!site && !robot && !address) throw fieldError([{ field: 'address', rule: 'rule.required' }]);
  const { value: config } = await ctx.settings.get('config');
  const now = ctx.now();
  const row = {
    id: newId(),
    recipientId: site ? actor.id : null,
    address: site ? null : address,
    serviceType: current.serviceType,
    vendor: current.vendor,
    title: `${config.system.appName}: test message`,
    content: `This test message was sent through the channel "${current.name}" by ${actor.username}.`,
    channelId: current.id,
    ...freshMessage(now),
    // Written as already claimed by this request (one attempt), so the outbox worker leaves it alone.
    status: DeliveryStatus.Sending,
    attempts: 1,
    nextAttemptAt: now + CLAIM_LEASE_MS,
    senderId: actor.id,
    senderName: actor.user.realName || actor.username,
  };
  await outboxDb(ctx.db).insertInto('messages').values(row).execute();
  // The delivery log keeps the outcome (no audit entry: nothing was changed).
  const outcome = await deliver(ctx, row, 1);
  return { ...toDelivery(outcome), channelName: current.name, recipientName: site ? actor.username : null };
}

/** The delivery log: outgoing messages (through a channel, or of a kind other than in-site), newest first. */
export function deliveries(ctx: Ctx, query: v.InferOutput<typeof deliveryListQuery>) {
  let select = outboxDb(ctx.db)
    .selectFrom('messages')
    .leftJoin('channels', 'channels.id', 'messages.channelId')
    .leftJoin('users', 'users.id', 'messages.recipientId')
    .selectAll('messages')
    .select(['channels.name as channelName', 'users.username as recipientName'])
    .where((eb) => eb.or([eb('messages.channelId', 'is not', null), eb('messages.serviceType', '!=', MessageServiceType.SITE_MESSAGE)]));
  if (query.channelId) select = select.where('messages.channelId', '=', query.channelId);
  if (query.status) select = select.where('messages.status', '=', query.status);
  return paginate(select.orderBy('messages.pushTime', 'desc').orderBy('messages.id'), query, toDelivery);
}
