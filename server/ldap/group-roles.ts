// The roles mapped to directory groups (the connection's `groupRoles`), given and taken back: a
// synchronisation does it for everyone it read, a sign-in for the person signing in. A person is in
// a mapped group directly or through groups in groups (Active Directory's nesting); DNs are
// compared as the directory compares them (server/ldap/dn.ts). Only the mapped roles change: roles
// granted here by hand stay.
import type { Ctx } from '../context';
import type { Actor, UserRow } from '../auth/actor';
import type { LdapSettings } from '../../src/core/schemas/ldap';
import { dnKey } from './dn';
import { namedChange } from '../services/list-save';
import { MAX_NESTING } from './directory';

export interface GroupMember {
  user: UserRow;
  /** The groups (as dnKey writes them) the person is in, nesting included. */
  groups: Set<string>;
}

/**
 * The groups (dnKey) of a person whose direct groups are `direct`, through `byMember` (group by
 * member, as Directory.groups reads it): breadth-first, each group once (a cycle ends),
 * at most MAX_NESTING levels.
 */
export function nestedGroups(direct: Iterable<string>, byMember: Map<string, string[]>): Set<string> {
  const found = new Set(direct);
  let level = [...found];
  for (let depth = 0; level.length > 0 && depth < MAX_NESTING; depth++) {
    level = level.flatMap((group) => byMember.get(group) ?? []).filter((group) => !found.has(group) && found.add(group));
  }
  return found;
}

/** Runs `work` over `items` (a synchronisation runs it a chunk per transaction). */
type Batches = <T>(items: T[], work: (batch: T[]) => Promise<void>) => Promise<void>;

/** Gives and takes back the roles mapped to directory groups; answers how many people changed. */
export async function applyGroupRoles(
  ctx: Ctx,
  settings: LdapSettings,
  actor: Actor,
  members: GroupMember[],
  ip: string,
  inBatches: Batches = (items, work) => work(items),
): Promise<number> {
  const mapping = settings.groupRoles.map((entry) => ({ group: dnKey(entry.groupDn), roleId: entry.roleId }));
  const mappedRoles = [...new Set(mapping.map((entry) => entry.roleId))];
  if (!mappedRoles.length || !members.length) return 0;
  let held = ctx.db.selectFrom('roleMembers').select(['roleId', 'userId']).where('roleId', 'in', mappedRoles);
  // A sign-in's one person reads their own roles only.
  if (members.length === 1) held = held.where('userId', '=', members[0]!.user.id);
  const heldBy = new Map<string, Set<string>>();
  for (const { roleId, userId } of await held.execute()) heldBy.set(userId, (heldBy.get(userId) ?? new Set()).add(roleId));
  let changed = 0;
  await inBatches(members, async (batch) => {
    for (const { user, groups } of batch) if (await giveAndTakeBack(user, groups)) changed += 1;
  });
  return changed;

  async function giveAndTakeBack(user: UserRow, groups: Set<string>): Promise<boolean> {
    const wanted = new Set(mapping.filter((entry) => groups.has(entry.group)).map((entry) => entry.roleId));
    const current = heldBy.get(user.id) ?? new Set<string>();
    const added = [...wanted].filter((role) => !current.has(role));
    const removed = [...current].filter((role) => !wanted.has(role));
    if (!added.length && !removed.length) return false;
    await ctx.audit.change(async () => {
      if (removed.length) await ctx.db.deleteFrom('roleMembers').where('userId', '=', user.id).where('roleId', 'in', removed).execute();
      if (added.length)
        await ctx.db
          .insertInto('roleMembers')
          .values(added.map((roleId) => ({ roleId, userId: user.id })))
          // Two sign-ins of one person at once may both give it.
          .onConflict((conflict) => conflict.doNothing())
          .execute();
      await ctx.audit.record({
        action: 'user.update',
        actor,
        target: { type: 'user', id: user.id },
        tenantId: user.tenantId,
        ip,
        detail: { roles: await namedChange(ctx, 'role', { added, removed }), from: 'directory groups' },
      });
    });
    return true;
  }
}
