// The audit log's calls: the event types the server records, the filters of the list and of the
// CSV export (time range, actor, event type, tenant), and an entry as answered.
import * as v from 'valibot';
import { id, pageQueryFields, pagedList } from './common';

export const auditActions = [
  'login.success',
  'login.third_party',
  'login.failure',
  'login.locked',
  'login.second_step',
  'logout',
  'user.unlock',
  'user.create',
  'user.update',
  'user.delete',
  'user.bulk',
  'user.import',
  'password.change',
  'password.reset',
  'session.revoke',
  'recovery.generate',
  'recovery.use',
  'recovery.delete',
  'passkey.add',
  'passkey.rename',
  'passkey.delete',
  'role.create',
  'role.update',
  'role.delete',
  'tenant.create',
  'tenant.update',
  'tenant.delete',
  'app.create',
  'app.update',
  'app.delete',
  'app.sign_in',
  'privilege.create',
  'privilege.update',
  'privilege.delete',
  'menu.create',
  'menu.update',
  'menu.delete',
  'channel.create',
  'channel.update',
  'channel.delete',
  'message.send',
  'settings.update',
  'config.update',
  'file.upload',
  'license.activate',
  'license.refused',
  'scim_token.create',
  'scim_token.revoke',
  'webhook.create',
  'webhook.update',
  'webhook.delete',
  'webhook.redeliver',
  'app.sign_out',
  'app.consent',
  'app.consent_withdraw',
  'app.grant_revoke',
  'email.verify',
  'message.delete',
  'scim.link',
  'scim.attributes',
  'ldap.sign_in_ambiguous',
  'ldap.sync',
] as const;
export type AuditAction = (typeof auditActions)[number];

/** A time (epoch milliseconds) given as text in a query string. */
const timeText = v.optional(
  v.pipe(v.union([v.string(), v.number()], 'rule.positiveInteger'), v.transform(String), v.regex(/^\d{1,15}$/, 'rule.positiveInteger'), v.transform(Number)),
);

/** The filters every audit call takes: events in [from, to], by an actor whose username contains
 *  `actor`, about a target whose name contains `target` (or whose id it is), of one event type,
 *  about a tenant's subtree; `parentId`: the rows of one bulk action or import. */
export const auditFilterFields = {
  from: timeText,
  to: timeText,
  actor: v.optional(v.pipe(v.string('rule.required'), v.maxLength(100, 'rule.maxLength?max=100'))),
  target: v.optional(v.pipe(v.string('rule.required'), v.maxLength(100, 'rule.maxLength?max=100'))),
  parentId: timeText,
  action: v.optional(v.picklist(auditActions, 'rule.ids')),
  tenantId: v.optional(id),
};

export const auditListQuery = v.object({
  ...pageQueryFields,
  searchProp: v.optional(v.picklist(['action', 'actorName', 'targetId'], 'rule.searchProp')),
  ...auditFilterFields,
});
export const auditExportQuery = v.object(auditFilterFields);

const auditEntry = v.object({
  id: v.number(),
  at: v.number(),
  actorId: v.nullable(v.string()),
  actorName: v.nullable(v.string()),
  action: v.string(),
  targetType: v.nullable(v.string()),
  targetId: v.nullable(v.string()),
  /** The target's name when the event was recorded. */
  targetName: v.nullable(v.string()),
  /** The target (a person, tenant, app or menu plan) no longer exists: named as deleted, never linked. */
  targetGone: v.boolean(),
  /** The bulk action's or import's own event, for one of its rows. */
  parentId: v.nullable(v.number()),
  /** How many row events a bulk action or import has beneath it. */
  children: v.number(),
  tenantId: v.nullable(v.string()),
  ip: v.nullable(v.string()),
  success: v.boolean(),
  detail: v.record(v.string(), v.unknown()),
});
export const auditList = pagedList(auditEntry);
