// Which webhook events an audit record is (src/core/schemas/webhooks.ts lists them), and the body
// every endpoint receives for one: { type, timestamp, data } as Standard Webhooks suggests, `data`
// being the audit record (who, what, which tenant, from where, whether it worked, its details).
import type { AuditAction, AuditEvent } from '../audit';
import type { WebhookEvent } from '../../src/core/schemas/webhooks';

const DIRECT: Partial<Record<AuditAction, WebhookEvent>> = {
  'user.create': 'user.created',
  'user.delete': 'user.deleted',
  'login.success': 'user.signed_in',
  'login.third_party': 'user.signed_in',
  'login.failure': 'user.sign_in_failed',
  'login.locked': 'user.locked',
  'user.unlock': 'user.unlocked',
  logout: 'user.signed_out',
  'password.change': 'user.password_changed',
  'password.reset': 'user.password_changed',
  'app.create': 'app.created',
  'app.update': 'app.updated',
  'app.delete': 'app.deleted',
  'tenant.create': 'tenant.created',
  'tenant.update': 'tenant.updated',
  'tenant.delete': 'tenant.deleted',
  'role.create': 'role.created',
  'role.delete': 'role.deleted',
};

/** A failed record changed nothing: it is a webhook event only when it reports the failure itself
 *  (a failed sign-in, a lockout); a refused password reset is no "password changed". */
const FAILURE_ACTIONS: readonly AuditAction[] = ['login.failure', 'login.locked'];

/** The webhook events of one audit record (none for most: settings, files, messages …). The
 *  services say in the record's detail what a user update was: `roles` (a person's roles in one
 *  app, from their page or a role's members saved: server/services/list-save.ts records each
 *  person), `disabled` (an update that disabled the person). */
export function webhookEventsOf(event: AuditEvent): WebhookEvent[] {
  if (event.success === false && !FAILURE_ACTIONS.includes(event.action)) return [];
  const detail = event.detail ?? {};
  if (event.action === 'user.update') {
    if ('roles' in detail) return ['user.roles_changed'];
    return detail.disabled === true ? ['user.updated', 'user.disabled'] : ['user.updated'];
  }
  if (event.action === 'role.update') return ['role.updated'];
  const direct = DIRECT[event.action];
  return direct ? [direct] : [];
}

/** The person a `user.*` event is about: the user it targets (a sign-in, a password change, an
 *  update), else the one whose session it ends (a sign-out), else the name a failed sign-in
 *  typed (no id: the name may match nobody). */
function personOf(event: AuditEvent): { id: string | null; username: string | null } | null {
  const { target, actor } = event;
  if (target?.type === 'user' && target.id) return { id: target.id, username: actor?.id === target.id ? actor.username : (target.name ?? null) };
  if (target?.type === 'session' && actor) return { id: actor.id, username: actor.username };
  const typed = event.detail?.username;
  return typeof typed === 'string' ? { id: null, username: typed } : null;
}

/** The JSON body of an event, as signed and posted (`data.user`: the person of a `user.*` event). */
export function eventPayload(type: string, event: AuditEvent, at: number): string {
  return JSON.stringify({
    type,
    timestamp: new Date(at).toISOString(),
    data: {
      action: event.action,
      actor: event.actor ? { id: event.actor.id, username: event.actor.username } : null,
      target: event.target ?? null,
      tenantId: event.tenantId ?? null,
      ip: event.ip ?? null,
      success: event.success !== false,
      detail: event.detail ?? {},
      ...(type.startsWith('user.') ? { user: personOf(event) } : {}),
    },
  });
}
