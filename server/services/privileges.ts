// Privilege trees of the apps: the queries and audit records behind /apps/{appId}/privileges.
import type * as v from 'valibot';
import type { Selectable } from 'kysely';
import type { Ctx } from '../context';
import { changeDetail, changedFields } from '../audit-changes';
import type { PrivilegeTable } from '../db/tables';
import type { privilegeBody, privilegeUpdateBody } from '../../src/core/schemas/privileges';
import type { privilegeOrderBody } from '../../src/core/schemas/admin';
import type { Actor } from '../auth/actor';
import { newId } from '../auth/secrets';
import { fieldError, notFound } from '../http/errors';
import { removedOnce } from '../db/removal';
import { manageableApp, unique } from './apps';

/** A privilege row as the API answers it. */
const toPrivilege = (row: Selectable<PrivilegeTable>) => ({
  id: row.id,
  appId: row.appId,
  parentId: row.parentId,
  name: row.name,
  key: row.key,
  sort: row.sort,
  path: row.path,
});

async function tree(ctx: Ctx, appId: string) {
  const rows = await ctx.db.selectFrom('privileges').selectAll().where('appId', '=', appId).orderBy('sort').orderBy('name').orderBy('id').execute();
  return rows.map(toPrivilege);
}

/** Walks up from the parent: it must belong to the app, and a node cannot sit under itself. */
async function assertParentInApp(ctx: Ctx, appId: string, parentId: string | null | undefined, selfId?: string): Promise<void> {
  if (!parentId) return;
  let cursor: string | null = parentId;
  for (let depth = 0; cursor && depth < 100; depth += 1) {
    if (cursor === selfId) throw fieldError([{ field: 'parentId', rule: 'rule.parentId' }]);
    const node: { parentId: string | null } | undefined = await ctx.db
      .selectFrom('privileges')
      .select('parentId')
      .where('id', '=', cursor)
      .where('appId', '=', appId)
      .executeTakeFirst();
    if (!node) throw fieldError([{ field: 'parentId', rule: 'rule.parentId' }]);
    cursor = node.parentId;
  }
}

/** An app's privilege tree, flat (by parentId and sort). */
export const listPrivileges = async (ctx: Ctx, actor: Actor, appId: string) => tree(ctx, (await manageableApp(ctx, actor, appId)).id);

export async function createPrivilege(ctx: Ctx, actor: Actor, appId: string, body: v.InferOutput<typeof privilegeBody>, ip: string) {
  const owner = await manageableApp(ctx, actor, appId);
  await assertParentInApp(ctx, owner.id, body.parentId);
  const row = {
    id: newId(),
    appId: owner.id,
    parentId: body.parentId ?? null,
    name: body.name,
    key: body.key,
    sort: body.sort ?? 0,
    path: body.path || null,
    createdAt: ctx.now(),
  };
  await ctx.audit.change(async () => {
    await unique('key', () => ctx.db.insertInto('privileges').values(row).execute());
    await ctx.audit.record({ action: 'privilege.create', actor, target: { type: 'privilege', id: row.id }, ip, detail: { appId: owner.id, key: row.key } });
  });
  return toPrivilege(row);
}

export async function updatePrivilege(ctx: Ctx, actor: Actor, appId: string, id: string, body: v.InferOutput<typeof privilegeUpdateBody>, ip: string) {
  const owner = await manageableApp(ctx, actor, appId);
  const current = await ctx.db.selectFrom('privileges').selectAll().where('id', '=', id).where('appId', '=', owner.id).executeTakeFirst();
  if (!current) throw notFound('Privilege');
  await assertParentInApp(ctx, owner.id, body.parentId, current.id);
  const changes = { ...body, ...(body.path !== undefined ? { path: body.path || null } : {}) };
  // A body without fields changes nothing (and an UPDATE needs at least one column).
  await ctx.audit.change(async () => {
    if (Object.keys(changes).length) await unique('key', () => ctx.db.updateTable('privileges').set(changes).where('id', '=', current.id).execute());
    await ctx.audit.record({
      action: 'privilege.update',
      actor,
      target: { type: 'privilege', id: current.id },
      ip,
      detail: changeDetail(changedFields(current, changes)),
    });
  });
  return toPrivilege({ ...current, ...changes });
}

/** Removes a node and its subtree. */
export async function deletePrivilege(ctx: Ctx, actor: Actor, appId: string, id: string, ip: string): Promise<void> {
  const owner = await manageableApp(ctx, actor, appId);
  await ctx.audit.change(async () => {
    await removedOnce(ctx.db.deleteFrom('privileges').where('id', '=', id).where('appId', '=', owner.id).executeTakeFirst(), 'Privilege');
    await ctx.audit.record({ action: 'privilege.delete', actor, target: { type: 'privilege', id }, ip, detail: { appId: owner.id } });
  });
}

/** Puts the children of one node (null: the top level) in the given order; answers the whole tree. */
export async function reorderPrivileges(ctx: Ctx, actor: Actor, appId: string, body: v.InferOutput<typeof privilegeOrderBody>, ip: string) {
  const owner = await manageableApp(ctx, actor, appId);
  const siblings = await ctx.db
    .selectFrom('privileges')
    .select('id')
    .where('appId', '=', owner.id)
    .where('parentId', body.parentId === null ? 'is' : '=', body.parentId)
    .execute();
  const wanted = new Set(body.ids);
  // The order must name every child of that parent exactly once.
  if (wanted.size !== body.ids.length || siblings.length !== wanted.size || siblings.some((row) => !wanted.has(row.id))) {
    throw fieldError([{ field: 'ids', rule: 'rule.ids' }]);
  }
  await ctx.audit.change(async () => {
    await ctx.db.transaction().execute(async (trx) => {
      for (const [index, id] of body.ids.entries())
        await trx
          .updateTable('privileges')
          .set({ sort: (index + 1) * 10 })
          .where('id', '=', id)
          .execute();
    });
    await ctx.audit.record({
      action: 'privilege.update',
      actor,
      target: { type: 'privilege', id: body.parentId },
      ip,
      detail: { appId: owner.id, order: body.ids.length },
    });
  });
  return tree(ctx, owner.id);
}
