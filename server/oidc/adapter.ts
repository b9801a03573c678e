// oidc-provider's storage adapter over our database (SQLite or PostgreSQL through Kysely): one row
// per model and id, so every server process sees the same codes, tokens, sessions and grants.
// Clients are not stored here: they are the apps (see clients.ts).
import type { CompiledQuery, Kysely } from 'kysely';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import { oidcLibrary } from './library';
import type { OidcDatabase } from './tables';
import { clientLookup } from './clients';

export function adapterFactory(db: Kysely<OidcDatabase>) {
  return (model: string): Adapter => (model === 'Client' ? clientAdapter(db) : new PayloadAdapter(db, model));
}

/** The provider's own clock is real time (the tokens it signs carry it), so expiry follows it too. */
const now = () => Date.now();

type PayloadRow = { payload: string; expiresAt: number | null; consumedAt: number | null };

class PayloadAdapter implements Adapter {
  constructor(private readonly db: Kysely<OidcDatabase>, private readonly model: string) {}

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    const row = {
      payload: JSON.stringify(payload),
      grantId: payload.grantId ?? null,
      accountId: payload.accountId ?? null,
      uid: payload.uid ?? null,
      userCode: payload.userCode ?? null,
      expiresAt: expiresIn ? now() + expiresIn * 1000 : null,
    };
    await this.db.insertInto('oidcPayloads').values({ model: this.model, id, consumedAt: null, ...row })
      .onConflict((conflict) => conflict.columns(['model', 'id']).doUpdateSet(row)).execute();
  }

  /** The lookups, built and compiled once per column: they run on every token, grant and session
   *  read, and building a query costs Kysely more than SQLite's indexed lookup. */
  private readonly lookups = new Map<string, CompiledQuery<PayloadRow>>();

  private lookup(column: 'id' | 'uid' | 'userCode'): CompiledQuery<PayloadRow> {
    let compiled = this.lookups.get(column);
    if (!compiled) {
      compiled = this.db.selectFrom('oidcPayloads').select(['payload', 'expiresAt', 'consumedAt'])
        .where('model', '=', this.model).where(column, '=', '').limit(1).compile();
      this.lookups.set(column, compiled);
    }
    return compiled;
  }

  private async findBy(column: 'id' | 'uid' | 'userCode', value: string): Promise<AdapterPayload | undefined> {
    const compiled = this.lookup(column);
    // The parameters in the order of the compiled query: the model, the value, the limit.
    const [row] = (await this.db.executeQuery<PayloadRow>({ ...compiled, parameters: [this.model, value, 1] })).rows;
    if (!row || (row.expiresAt !== null && row.expiresAt <= now())) return undefined;
    const payload = JSON.parse(row.payload) as AdapterPayload;
    return row.consumedAt === null ? payload : { ...payload, consumed: Math.floor(row.consumedAt / 1000) };
  }

  find(id: string) { return this.findBy('id', id); }
  findByUid(uid: string) { return this.findBy('uid', uid); }
  findByUserCode(userCode: string) { return this.findBy('userCode', userCode); }

  /** Single use even under a parallel burst: only one request marks the code or refresh token
   *  consumed; any other that got this far is a reuse, which revokes the grant. */
  async consume(id: string): Promise<void> {
    const marked = await this.db.updateTable('oidcPayloads').set({ consumedAt: now() })
      .where('model', '=', this.model).where('id', '=', id).where('consumedAt', 'is', null).executeTakeFirst();
    if (Number(marked.numUpdatedRows) === 1) return;
    const row = await this.db.selectFrom('oidcPayloads').select('grantId').where('model', '=', this.model).where('id', '=', id).executeTakeFirst();
    if (row?.grantId) await this.revokeByGrantId(row.grantId);
    throw new (await oidcLibrary()).errors.InvalidGrant('already used');
  }

  async destroy(id: string): Promise<void> {
    await this.db.deleteFrom('oidcPayloads').where('model', '=', this.model).where('id', '=', id).execute();
  }

  /** The grant itself goes too (its own row carries no grant id): a token written by a request
   *  that was still running (the winner of a burst that a reuse just revoked) then leads nowhere. */
  async revokeByGrantId(grantId: string): Promise<void> {
    await this.db.deleteFrom('oidcPayloads')
      .where((eb) => eb.or([eb('grantId', '=', grantId), eb.and([eb('model', '=', 'Grant'), eb('id', '=', grantId)])])).execute();
  }
}

/** Clients are read-only here: an enabled app with a generated secret is a client. */
function clientAdapter(db: Kysely<OidcDatabase>): Adapter {
  const readOnly = async () => undefined;
  return {
    find: clientLookup(db),
    findByUid: readOnly, findByUserCode: readOnly, upsert: readOnly, consume: readOnly, destroy: readOnly, revokeByGrantId: readOnly,
  };
}
