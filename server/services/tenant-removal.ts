// Removing a tenant: an empty one of the actor's scope (no sub-tenants, no people), not their own nor
// the root. What hangs on it goes with it, each with its own record in the same change (actor: the
// remover), as an auditor asks of it ("who revoked Entra's SCIM token, and when?"): its live SCIM
// tokens are revoked and its webhook endpoints removed before the database's cascade deletes the rows.
import type { Ctx } from '../context';
import type { Actor } from '../auth/actor';
import { conflict, forbidden } from '../http/errors';
import { removedOnce } from '../db/removal';
import { manageableTenant } from './tenants';
import { revokeTenantScimTokens } from './scim-tokens';
import { removeTenantWebhooks } from './webhooks';

/**
 * Holds the tenant's row until the change ends. PostgreSQL: FOR UPDATE, which also waits for (and
 * then holds off) a person or sub-tenant being created in it, whose foreign key takes a share lock
 * on the row: the emptiness check below sees what they committed, and one created after the
 * removal fails on its foreign key (a 409, server/app.ts). SQLite: the change began with BEGIN
 * IMMEDIATE and already holds the database.
 */
async function lockTenant(ctx: Ctx, id: string): Promise<void> {
  if (ctx.engine === 'postgres') await ctx.db.selectFrom('tenants').select('id').where('id', '=', id).forUpdate().execute();
}

export async function deleteTenant(ctx: Ctx, actor: Actor, id: string, ip: string): Promise<void> {
  const current = await manageableTenant(ctx, actor, id);
  if (current.parentId === null || current.path === actor.tenantPath) throw forbidden('This tenant cannot be deleted');
  await ctx.audit.change(async () => {
    await lockTenant(ctx, current.id);
    // Checked inside the change, after the lock: a person created meanwhile is seen, not orphaned.
    const child = await ctx.db.selectFrom('tenants').select('id').where('parentId', '=', current.id).limit(1).executeTakeFirst();
    const member = await ctx.db.selectFrom('users').select('id').where('tenantId', '=', current.id).limit(1).executeTakeFirst();
    if (child || member) throw conflict('The tenant still has sub-tenants or users');
    await revokeTenantScimTokens(ctx, actor, current.id, ip);
    await removeTenantWebhooks(ctx, actor, current.id, ip);
    await removedOnce(ctx.db.deleteFrom('tenants').where('id', '=', current.id).executeTakeFirst(), 'Tenant');
    await ctx.audit.record({
      action: 'tenant.delete',
      actor,
      target: { type: 'tenant', id: current.id },
      tenantId: current.parentId,
      ip,
      detail: { name: current.name },
    });
  });
}
