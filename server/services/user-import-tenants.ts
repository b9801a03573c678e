// The tenant column of a CSV import (server/services/user-import.ts) names a tenant by its id, its
// name, or its path of names from the top as the tenant tree shows it ("Sales/EMEA", or with the
// root "Acme/Sales/EMEA"; letter case does not matter). Only tenants of the importer's scope are
// looked up by name, so a name outside it is as unknown as a wrong one (a tenant administrator
// learns nothing of other tenants); an id is passed on as it is, for the placement rules of
// server/services/users.ts to accept or refuse as in the user dialog.
import type { Ctx } from '../context';
import type { Actor } from '../auth/actor';

interface Node {
  id: string;
  parentId: string | null;
  name: string;
}

/** Why a cell names no tenant (translated by server/http/messages.zh.json, as the import's other
 *  row problems: the sign-in entry's texts do not carry them). */
export const UNKNOWN_TENANT = 'No tenant you manage has this id, name or path: write it as the tenant tree shows it, such as Sales/EMEA';
export const AMBIGUOUS_TENANT = 'Several tenants you manage match this name: write its path from the top of the tree, such as Acme/Sales/EMEA, or its id';

/** What a cell names: a tenant id, or why it names none. */
export type TenantCell = { id: string } | { problem: typeof UNKNOWN_TENANT | typeof AMBIGUOUS_TENANT };

const folded = (name: string) => name.normalize('NFC').toLowerCase();

export class ImportTenants {
  private nodes: Promise<Map<string, Node>> | undefined;
  private readonly answers = new Map<string, Promise<TenantCell>>();

  constructor(
    private readonly ctx: Ctx,
    private readonly actor: Actor,
  ) {}

  /** The tenant `cell` names (each distinct cell looked up once per import). */
  resolve(cell: string): Promise<TenantCell> {
    let answer = this.answers.get(cell);
    if (!answer) this.answers.set(cell, (answer = this.lookUp(cell.trim())));
    return answer;
  }

  /** The tenants of the importer's scope: every one for a platform administrator, else their subtree. */
  private inScope(): Promise<Map<string, Node>> {
    const { ctx, actor } = this;
    this.nodes ??= (async () => {
      if (!actor.platformAdmin && !actor.tenantPath) return new Map<string, Node>();
      let query = ctx.db.selectFrom('tenants').select(['id', 'parentId', 'name']);
      if (!actor.platformAdmin && actor.tenantPath) query = query.where('path', 'like', `${actor.tenantPath}%`);
      return new Map((await query.execute()).map((node) => [node.id, node]));
    })();
    return this.nodes;
  }

  private async lookUp(cell: string): Promise<TenantCell> {
    const nodes = await this.inScope();
    if (nodes.has(cell)) return { id: cell };
    const names = cell.split('/').map((name) => folded(name.trim()));
    const matches = names.every(Boolean) ? [...nodes.values()].filter((node) => this.namedBy(node, names, nodes)) : [];
    if (matches.length === 1) return { id: matches[0]!.id };
    if (matches.length > 1) return { problem: AMBIGUOUS_TENANT };
    // Not a name in scope: an existing id goes on to the placement rules (which refuse one outside the scope).
    const exists = await this.ctx.db.selectFrom('tenants').select('id').where('id', '=', cell).executeTakeFirst();
    return exists ? { id: cell } : { problem: UNKNOWN_TENANT };
  }

  /** Do `node`'s name and its ancestors' (as far as the scope goes) end with `names`? */
  private namedBy(node: Node, names: string[], nodes: Map<string, Node>): boolean {
    let at: Node | undefined = node;
    for (let index = names.length - 1; index >= 0; index -= 1) {
      if (!at || folded(at.name) !== names[index]) return false;
      at = at.parentId ? nodes.get(at.parentId) : undefined;
    }
    return true;
  }
}
