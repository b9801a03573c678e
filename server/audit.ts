// The audit log of security events: who did what to whom, when, from where, and whether it worked.
import type { Kysely } from 'kysely';
import type { Database } from './db/tables';

export type AuditAction =
  | 'login.success' | 'login.third_party' | 'login.failure' | 'login.locked' | 'login.second_step' | 'logout'
  | 'user.unlock' | 'user.create' | 'user.update' | 'user.delete'
  | 'password.change' | 'password.reset'
  | 'session.revoke'
  | 'role.create' | 'role.update' | 'role.delete'
  | 'tenant.create' | 'tenant.update' | 'tenant.delete'
  | 'app.create' | 'app.update' | 'app.delete'
  | 'privilege.create' | 'privilege.update' | 'privilege.delete'
  | 'menu.create' | 'menu.update' | 'menu.delete'
  | 'channel.create' | 'channel.update' | 'channel.delete'
  | 'message.send'
  | 'settings.update' | 'config.update'
  | 'file.upload'
  | 'license.activate' | 'license.refused';

export interface AuditEvent {
  action: AuditAction;
  actor?: { id: string; username: string } | null;
  target?: { type: string; id: string | null } | null;
  tenantId?: string | null;
  ip?: string | null;
  success?: boolean;
  detail?: Record<string, unknown>;
}

export class AuditLog {
  private readonly listeners: ((event: AuditEvent) => void)[] = [];

  constructor(private readonly db: Kysely<Database>, private readonly now: () => number) {}

  /** Tells `listener` of every event recorded from now on (the metrics count sign-ins this way). */
  listen(listener: (event: AuditEvent) => void): void {
    this.listeners.push(listener);
  }

  async record(event: AuditEvent): Promise<void> {
    for (const listener of this.listeners) listener(event);
    await this.db.insertInto('auditLog').values({
      at: this.now(),
      actorId: event.actor?.id ?? null,
      actorName: event.actor?.username ?? null,
      action: event.action,
      targetType: event.target?.type ?? null,
      targetId: event.target?.id ?? null,
      tenantId: event.tenantId ?? null,
      ip: event.ip ?? null,
      success: event.success === false ? 0 : 1,
      detail: JSON.stringify(event.detail ?? {}),
    }).execute();
  }
}
