// SCIM tokens: the bearer tokens a tenant's provisioning client (Entra ID, Okta, …) calls /scim/v2
// with (docs/scim.md). Platform and tenant administrators (Permission.Operations) create, list and
// revoke the tokens of the tenants of their scope; the secret is answered once and only its
// SHA-256 is stored; every change is audited.
import type * as v from 'valibot';
import type { Selectable } from 'kysely';
import type { Ctx } from '../context';
import type { ScimTokenTable } from '../db/tables';
import type { scimTokenCreateBody, scimTokenListQuery, ScimToken, ScimTokenCreated } from '../../src/core/schemas/scim-tokens';
import { isPlatformAdmin, isTenantAdmin, type Actor } from '../auth/actor';
import { Status } from '../../src/core/enums';
import { canManageTenantPath } from '../auth/scope';
import { digest, newId, newSecret } from '../auth/secrets';
import { paginate } from '../http/paging';
import { notFound } from '../http/errors';
import { manageableTenant } from './tenants';
import { recheck } from '../auth/recheck';
import { SCIM_BASE } from '../scim/base';

export type ScimTokenRow = Selectable<ScimTokenTable>;

/** The secret's prefix: tells a SCIM token apart from other secrets (in a leak scan, in a log). */
const SECRET_PREFIX = 'scim_';
/** `lastUsedAt` is written at most this often per token, not on every call of a provisioning run. */
const LAST_USED_STEP_MS = 60_000;

const toToken = ({ secretHash: _hash, createdBy: _by, tenantPath: _path, ...row }: ScimTokenRow & { tenantName: string; tenantPath: string }): ScimToken => row;

const tokensWithTenant = (ctx: Ctx) =>
  ctx.db
    .selectFrom('scimTokens')
    .innerJoin('tenants', 'tenants.id', 'scimTokens.tenantId')
    .selectAll('scimTokens')
    .select(['tenants.name as tenantName', 'tenants.path as tenantPath']);

/** The subtree whose tokens the actor sees: everything for the platform, their own for a tenant administrator. */
const visiblePrefix = (actor: Actor) => (actor.platformAdmin ? '/' : (actor.tenantPath ?? '/-none-/'));

export async function listScimTokens(ctx: Ctx, actor: Actor, query: v.InferOutput<typeof scimTokenListQuery>) {
  let select = tokensWithTenant(ctx).where('tenants.path', 'like', `${visiblePrefix(actor)}%`);
  if (query.tenantId) select = select.where('scimTokens.tenantId', '=', query.tenantId);
  return paginate(select.orderBy('scimTokens.createdAt', 'desc').orderBy('scimTokens.id'), query, toToken);
}

export async function createScimToken(ctx: Ctx, actor: Actor, body: v.InferOutput<typeof scimTokenCreateBody>, ip: string): Promise<ScimTokenCreated> {
  const tenant = await manageableTenant(ctx, actor, body.tenantId);
  // The token writes people's phones and e-mails (where their password reset goes) with no password
  // of its own: whoever makes it proves they are the session's owner, as for any sensitive change.
  await recheck(ctx, actor, { password: body.currentPassword }, ip, 'currentPassword');
  const secret = `${SECRET_PREFIX}${newSecret()}`;
  const row: ScimTokenRow = {
    id: newId(),
    tenantId: tenant.id,
    name: body.name,
    secretHash: digest(secret),
    createdBy: actor.id,
    createdAt: ctx.now(),
    lastUsedAt: null,
    revokedAt: null,
  };
  await ctx.audit.change(async () => {
    await ctx.db.insertInto('scimTokens').values(row).execute();
    await ctx.audit.record({
      action: 'scim_token.create',
      actor,
      target: { type: 'scim_token', id: row.id },
      tenantId: tenant.id,
      ip,
      detail: { name: row.name },
    });
  });
  return { token: toToken({ ...row, tenantName: tenant.name, tenantPath: tenant.path }), secret, endpoint: `${ctx.site.origin()}${SCIM_BASE}` };
}

/** Revokes a token of the actor's scope (404 outside it); its next call answers 401. A token already
 *  revoked (by a call before, or one running at once) answers as it is, with no second record. */
export async function revokeScimToken(ctx: Ctx, actor: Actor, id: string, ip: string): Promise<ScimToken> {
  const row = await tokensWithTenant(ctx).where('scimTokens.id', '=', id).executeTakeFirst();
  if (!row || !canManageTenantPath(actor, row.tenantPath)) throw notFound('SCIM token');
  if (row.revokedAt !== null) return toToken(row);
  const revokedAt = await ctx.audit.change(() => revokeToken(ctx, actor, row, ip));
  if (revokedAt !== undefined) return toToken({ ...row, revokedAt });
  const stored = await tokensWithTenant(ctx).where('scimTokens.id', '=', id).executeTakeFirst();
  if (!stored) throw notFound('SCIM token');
  return toToken(stored);
}

/** Inside a change: revokes the token and records it when this call revoked it (answers when);
 *  undefined when another change revoked or removed it first (its record is that change's). */
async function revokeToken(ctx: Ctx, actor: Actor, row: ScimTokenRow, ip: string): Promise<number | undefined> {
  const revokedAt = ctx.now();
  const { numUpdatedRows } = await ctx.db
    .updateTable('scimTokens')
    .set({ revokedAt })
    .where('id', '=', row.id)
    .where('revokedAt', 'is', null)
    .executeTakeFirst();
  if (numUpdatedRows === 0n) return undefined;
  await ctx.audit.record({
    action: 'scim_token.revoke',
    actor,
    target: { type: 'scim_token', id: row.id },
    tenantId: row.tenantId,
    ip,
    detail: { name: row.name },
  });
  return revokedAt;
}

/** Inside a tenant's removal (its change, after its row is locked): each live token of the tenant is
 *  revoked with its own record before the cascade removes it, not silently. */
export async function revokeTenantScimTokens(ctx: Ctx, actor: Actor, tenantId: string, ip: string): Promise<void> {
  const live = await ctx.db.selectFrom('scimTokens').selectAll().where('tenantId', '=', tenantId).where('revokedAt', 'is', null).orderBy('id').execute();
  for (const row of live) await revokeToken(ctx, actor, row, ip);
}

/** Whether the administrator who created a token could still create it: enabled, and a platform
 *  administrator or a tenant administrator above the token's tenant. A token never outlives its
 *  creator's rights (disabled, deleted, demoted or moved away: its next call answers 401). */
async function creatorStillEntitled(ctx: Ctx, token: ScimTokenRow & { tenantPath: string }): Promise<boolean> {
  const creator = await ctx.db
    .selectFrom('users')
    .leftJoin('tenants', 'tenants.id', 'users.tenantId')
    .selectAll('users')
    .select('tenants.path as creatorTenantPath')
    .where('users.id', '=', token.createdBy)
    .executeTakeFirst();
  if (!creator || creator.availabilityStatus !== Status.Enable) return false;
  if (isPlatformAdmin(creator)) return true;
  return isTenantAdmin(creator) && creator.creatorTenantPath !== null && token.tenantPath.startsWith(creator.creatorTenantPath);
}

/** The live token a bearer secret names, with its tenant's path; undefined for an unknown or
 *  revoked one, or one whose creator may no longer create it. */
export async function scimTokenOf(ctx: Ctx, secret: string): Promise<(ScimTokenRow & { tenantPath: string }) | undefined> {
  if (!secret.startsWith(SECRET_PREFIX)) return undefined;
  const row = await tokensWithTenant(ctx).where('scimTokens.secretHash', '=', digest(secret)).where('scimTokens.revokedAt', 'is', null).executeTakeFirst();
  if (!row || !(await creatorStillEntitled(ctx, row))) return undefined;
  const now = ctx.now();
  if (row.lastUsedAt === null || now - row.lastUsedAt >= LAST_USED_STEP_MS) {
    await ctx.db.updateTable('scimTokens').set({ lastUsedAt: now }).where('id', '=', row.id).execute();
  }
  return row;
}
