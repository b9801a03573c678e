// Message channels (SMS, EMAIL, DING_TALK, QYWX_WEBHOOK, SITE_MESSAGE), their delivery log, the
// in-site inbox and message history. The settings of each service type are described once here:
// the server validates and masks with these descriptions, the channel form renders them.
import * as v from 'valibot';
import { MessageServiceType } from '../enums';
import { rules } from '../validation';
import { id, pageQueryFields, pagedList, version } from './common';
import { deliveryErrorCode } from './delivery-error';

/** Where an outgoing message is: waiting (and between retries), being sent, delivered, given up. */
export const DeliveryStatus = { Queued: 'queued', Sending: 'sending', Sent: 'sent', Failed: 'failed' } as const;
export type DeliveryStatus = (typeof DeliveryStatus)[keyof typeof DeliveryStatus];

/** An in-site message is unread until its recipient reads it. */
export const InboxStatus = { Unread: 'unread', Read: 'read' } as const;

/** What the answer shows instead of a stored secret; sending it back (or leaving the setting out) keeps the secret. */
export const SECRET_MASK = '********';

type ChannelFieldKind = 'text' | 'url' | 'port' | 'email' | 'select' | 'json';

/** The settings a channel may have (their labels are texts of the console, checked by the typecheck). */
export type ChannelSettingName =
  | 'host'
  | 'port'
  | 'security'
  | 'username'
  | 'password'
  | 'from'
  | 'url'
  | 'templateId'
  | 'signName'
  | 'accessKeyId'
  | 'accessSecret'
  | 'templateParams'
  | 'webhook'
  | 'secret';

export interface ChannelField {
  name: ChannelSettingName;
  kind: ChannelFieldKind;
  required?: boolean;
  /** Write-only: never answered back (the answer carries SECRET_MASK when it is set). */
  secret?: boolean;
  /** The values of a select (the first is the default). */
  options?: readonly ('starttls' | 'tls' | 'none')[];
}

/** The settings of each service type. */
export const channelFields: Record<MessageServiceType, readonly ChannelField[]> = {
  [MessageServiceType.EMAIL]: [
    { name: 'host', kind: 'text', required: true },
    { name: 'port', kind: 'port', required: true },
    { name: 'security', kind: 'select', options: ['starttls', 'tls', 'none'] },
    { name: 'username', kind: 'text' },
    { name: 'password', kind: 'text', secret: true },
    { name: 'from', kind: 'email' },
  ],
  [MessageServiceType.SMS]: [
    { name: 'url', kind: 'url', required: true },
    { name: 'templateId', kind: 'text', required: true },
    { name: 'signName', kind: 'text' },
    { name: 'accessKeyId', kind: 'text' },
    { name: 'accessSecret', kind: 'text', secret: true },
    { name: 'templateParams', kind: 'json' },
  ],
  [MessageServiceType.DING_TALK]: [
    { name: 'webhook', kind: 'url', required: true, secret: true },
    { name: 'secret', kind: 'text', secret: true },
  ],
  [MessageServiceType.QYWX_WEBHOOK]: [{ name: 'webhook', kind: 'url', required: true, secret: true }],
  [MessageServiceType.SITE_MESSAGE]: [],
};

export const serviceTypes = Object.values(MessageServiceType);
const serviceType = v.picklist(serviceTypes, 'rule.serviceType');

/** A JSON object whose values are texts (SMS template parameters with {{title}}/{{content}} placeholders). */
const isStringMap = (value: string) => {
  try {
    const parsed: unknown = JSON.parse(value);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) && Object.values(parsed).every((item) => typeof item === 'string');
  } catch {
    return false;
  }
};

function fieldRule(field: ChannelField): v.GenericSchema<unknown, string> {
  switch (field.kind) {
    case 'url':
      return rules.url;
    case 'port':
      return v.pipe(
        v.string('rule.required'),
        v.regex(/^\d{1,5}$/, 'rule.port'),
        v.check((port) => Number(port) >= 1 && Number(port) <= 65535, 'rule.port'),
      );
    case 'email':
      return rules.email;
    case 'select':
      return v.picklist(field.options ?? [], 'rule.required');
    case 'json':
      return v.pipe(v.string('rule.required'), v.check(isStringMap, 'rule.json'));
    default:
      return v.pipe(rules.required, v.maxLength(2000, 'rule.maxLength?max=2000'));
  }
}

/** The settings of a channel of `type`: required ones present, optional ones empty or valid (others are dropped). */
export function channelConfigSchema(type: MessageServiceType) {
  const entries = Object.fromEntries(
    channelFields[type].map((field) => [field.name, field.required ? fieldRule(field) : v.optional(v.union([v.literal(''), fieldRule(field)]))]),
  );
  return v.object(entries, 'rule.required');
}

const channelConfig = v.record(v.pipe(v.string(), v.maxLength(60)), v.pipe(v.string('rule.required'), v.maxLength(2000, 'rule.maxLength?max=2000')));
const vendor = v.pipe(v.string('rule.required'), v.nonEmpty('rule.required'), v.maxLength(60, 'rule.maxLength?max=60'));

export const channelBody = v.object({ name: rules.resourceName, serviceType, vendor, config: channelConfig, enabled: v.optional(v.boolean('rule.required')) });
export const channelUpdateBody = v.object({ ...v.partial(channelBody).entries, version });
export type ChannelInput = v.InferInput<typeof channelBody>;

export const channel = v.object({
  id: v.string(),
  name: v.string(),
  serviceType,
  vendor: v.string(),
  config: v.record(v.string(), v.string()),
  enabled: v.boolean(),
  version: v.number(),
  createdAt: v.number(),
  updatedAt: v.number(),
});
export type Channel = v.InferOutput<typeof channel>;
export const channelList = pagedList(channel);

/** Enabled channels as the "send a message" dialog offers them (no settings). */
export const channelOption = v.object({ id: v.string(), name: v.string(), serviceType, vendor: v.string() });
export type ChannelOption = v.InferOutput<typeof channelOption>;

/** The recipient of a test: an email address, a mobile number (SMS; a robot's @mention), nothing for the inbox. */
export const channelTestBody = v.object({
  address: v.optional(
    v.union([v.literal(''), v.pipe(v.string(), v.maxLength(200, 'rule.maxLength?max=200'), v.regex(/^(?:[^\s@]+@[^\s@]+|\+?[\d-]{5,20})$/, 'rule.address'))]),
  ),
});

/** One outgoing message as the delivery log shows it (its text is not shown: it may hold a code). */
export const delivery = v.object({
  id: v.string(),
  channelId: v.nullable(v.string()),
  channelName: v.nullable(v.string()),
  serviceType: v.string(),
  vendor: v.nullable(v.string()),
  address: v.nullable(v.string()),
  title: v.string(),
  status: v.string(),
  errorCode: deliveryErrorCode,
  /** The raw detail of the failure (src/core/schemas/delivery-error.ts). */
  error: v.nullable(v.string()),
  attempts: v.number(),
  pushTime: v.number(),
  sentAt: v.nullable(v.number()),
  /** The username of the person it went to (in-site messages, and email or SMS to an account); null for a robot's group chat. */
  recipientName: v.nullable(v.string()),
});
export type Delivery = v.InferOutput<typeof delivery>;
export const deliveryList = pagedList(delivery);
export const deliveryListQuery = v.object({
  ...pageQueryFields,
  channelId: v.optional(id),
  status: v.optional(v.picklist(Object.values(DeliveryStatus), 'rule.status')),
});

// Messages -------------------------------------------------------------------------------------
export const messageListQuery = v.object({ ...pageQueryFields, status: v.optional(v.picklist(['unread', 'read', 'all'], 'rule.status'), 'unread') });
export const historyQuery = v.object(pageQueryFields);

export const messageSendBody = v.pipe(
  v.object({
    title: v.pipe(v.string('rule.required'), v.nonEmpty('rule.required'), v.maxLength(200, 'rule.maxLength?max=200')),
    content: v.pipe(v.string('rule.required'), v.nonEmpty('rule.required'), v.maxLength(5000, 'rule.maxLength?max=5000')),
    userIds: v.optional(v.pipe(v.array(id, 'rule.required'), v.maxLength(500, 'rule.maxLength?max=500'))),
    /** Every enabled user of this tenant and the tenants below it. */
    tenantId: v.optional(id),
    /** Absent: the in-site inbox. */
    channelId: v.optional(id),
  }),
  v.forward(
    v.check((body) => (body.userIds?.length ?? 0) > 0 || body.tenantId !== undefined, 'rule.recipients'),
    ['userIds'],
  ),
);
export const sendAnswer = v.object({ count: v.number(), skipped: v.number() });

/** A message of mine: the inbox shows in-site ones; the history every kind (text only for in-site ones).
 *  `sender` is the name of the person who sent it; null: the console itself ("System"). */
const message = v.object({
  id: v.string(),
  serviceType: v.string(),
  vendor: v.nullable(v.string()),
  title: v.string(),
  content: v.string(),
  status: v.string(),
  pushTime: v.number(),
  readAt: v.nullable(v.number()),
  sender: v.nullable(v.string()),
});
export type Message = v.InferOutput<typeof message>;
export const messageList = pagedList(message);
