// oidc-provider's storage adapter over our database (SQLite or PostgreSQL through Kysely): one row
// per model and id, so every server process sees the same codes, tokens, sessions and grants.
// Clients are not stored here: they are the apps (see clients.ts).
import type { Kysely } from 'kysely';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import { oidcLibrary } from './library';
import { couldBeStored, type OidcDatabase } from './tables';
import { clientLookup } from './clients';
import { compiledStatement } from '../db/statement';
import type { Engine } from '../db/connect';
import {
  forgetReadAhead,
  foundAsAccessToken,
  noteAccessTokenRead,
  type PayloadRow,
  READ_AHEAD_MODELS,
  readWithGrant,
  takeReadAhead,
  tokenWithGrantStatement,
} from './read-ahead';

export function adapterFactory(db: Kysely<OidcDatabase>, engine: Engine) {
  const statements = payloadStatements(db, engine);
  return (model: string): Adapter => (model === 'Client' ? clientAdapter(db) : new PayloadAdapter(db, statements, model));
}

/** The provider's own clock is real time (the tokens it signs carry it), so expiry follows it too. */
const now = () => Date.now();

const live = (row: PayloadRow | null | undefined): row is PayloadRow => row != null && (row.expiresAt === null || row.expiresAt > now());

type Stored = {
  model: string;
  id: string;
  payload: string;
  grantId: string | null;
  accountId: string | null;
  uid: string | null;
  userCode: string | null;
  expiresAt: number | null;
};

/** What runs on every token, grant and session read or write, built once for every model (the
 *  model is bound like any value); prepared on PostgreSQL. */
function payloadStatements(db: Kysely<OidcDatabase>, engine: Engine) {
  const prepared = { preparedOnPostgres: true };
  const lookup = (column: 'id' | 'uid' | 'userCode') =>
    compiledStatement<{ model: string; value: string }>(prepared)((slot) =>
      db
        .selectFrom('oidcPayloads')
        .select(['payload', 'expiresAt', 'consumedAt'])
        .where('model', '=', slot('model'))
        .where(column, '=', slot('value'))
        .limit(1),
    );
  return {
    lookups: { id: lookup('id'), uid: lookup('uid'), userCode: lookup('userCode') },
    tokenWithGrant: tokenWithGrantStatement(db, engine),
    upsert: compiledStatement<Stored>(prepared)((slot) => {
      const row = {
        payload: slot('payload'),
        grantId: slot('grantId'),
        accountId: slot('accountId'),
        uid: slot('uid'),
        userCode: slot('userCode'),
        expiresAt: slot('expiresAt'),
      };
      return db
        .insertInto('oidcPayloads')
        .values({ model: slot('model'), id: slot('id'), consumedAt: null, ...row })
        .onConflict((conflict) => conflict.columns(['model', 'id']).doUpdateSet(row));
    }),
    // Only one request marks a code or refresh token consumed (see consume).
    consume: compiledStatement<{ model: string; id: string; at: number }>(prepared)((slot) =>
      db
        .updateTable('oidcPayloads')
        .set({ consumedAt: slot('at') })
        .where('model', '=', slot('model'))
        .where('id', '=', slot('id'))
        .where('consumedAt', 'is', null),
    ),
  };
}

class PayloadAdapter implements Adapter {
  constructor(
    private readonly db: Kysely<OidcDatabase>,
    private readonly statements: ReturnType<typeof payloadStatements>,
    private readonly model: string,
  ) {}

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    forgetReadAhead();
    await this.db.executeQuery(
      this.statements.upsert({
        model: this.model,
        id,
        payload: JSON.stringify(payload),
        grantId: payload.grantId ?? null,
        accountId: payload.accountId ?? null,
        uid: payload.uid ?? null,
        userCode: payload.userCode ?? null,
        expiresAt: expiresIn ? now() + expiresIn * 1000 : null,
      }),
    );
  }

  private async findBy(column: 'id' | 'uid' | 'userCode', value: string): Promise<AdapterPayload | undefined> {
    const row = await this.readOnce(column, value);
    if (!live(row)) return undefined;
    const payload = JSON.parse(row.payload) as AdapterPayload;
    return row.consumedAt === null ? payload : { ...payload, consumed: Math.floor(row.consumedAt / 1000) };
  }

  /** The row, but no machine-token read for a value this request found as an access token, and
   *  every access-token read noted for that check (read-ahead.ts, foundAsAccessToken). */
  private async readOnce(column: 'id' | 'uid' | 'userCode', value: string): Promise<PayloadRow | null | undefined> {
    if (column !== 'id') return this.read(column, value);
    if (this.model === 'ClientCredentials') return (await foundAsAccessToken(value)) ? undefined : this.read(column, value);
    const read = this.read(column, value);
    if (this.model === 'AccessToken') noteAccessTokenRead(value, read.then(live));
    return read;
  }

  /** The row: read ahead with its token (read-ahead.ts), read with its grant and session when it is
   *  a token the provider reads them for next, or read alone. */
  private async read(column: 'id' | 'uid' | 'userCode', value: string): Promise<PayloadRow | null | undefined> {
    if (!couldBeStored(value)) return undefined;
    const early = takeReadAhead(this.model, column, value);
    if (early !== undefined) return early;
    if (column === 'id' && READ_AHEAD_MODELS.has(this.model)) {
      const joined = await readWithGrant(async () => (await this.db.executeQuery(this.statements.tokenWithGrant({ model: this.model, id: value }))).rows[0]);
      if (joined) return joined.row;
    }
    return (await this.db.executeQuery(this.statements.lookups[column]({ model: this.model, value }))).rows[0];
  }

  find(id: string) {
    return this.findBy('id', id);
  }
  findByUid(uid: string) {
    return this.findBy('uid', uid);
  }
  findByUserCode(userCode: string) {
    return this.findBy('userCode', userCode);
  }

  /** Single use even under a parallel burst: only one request marks the code or refresh token
   *  consumed; any other that got this far is a reuse, which revokes the grant. */
  async consume(id: string): Promise<void> {
    forgetReadAhead();
    const marked = await this.db.executeQuery(this.statements.consume({ model: this.model, id, at: now() }));
    if (marked.numAffectedRows === 1n) return;
    const row = await this.db.selectFrom('oidcPayloads').select('grantId').where('model', '=', this.model).where('id', '=', id).executeTakeFirst();
    if (row?.grantId) await this.revokeByGrantId(row.grantId);
    throw new (await oidcLibrary()).errors.InvalidGrant('already used');
  }

  async destroy(id: string): Promise<void> {
    forgetReadAhead();
    await this.db.deleteFrom('oidcPayloads').where('model', '=', this.model).where('id', '=', id).execute();
  }

  /** The grant itself goes too (its own row carries no grant id): a token written by a request
   *  that was still running (the winner of a burst that a reuse just revoked) then leads nowhere. */
  async revokeByGrantId(grantId: string): Promise<void> {
    forgetReadAhead();
    await this.db
      .deleteFrom('oidcPayloads')
      .where((eb) => eb.or([eb('grantId', '=', grantId), eb.and([eb('model', '=', 'Grant'), eb('id', '=', grantId)])]))
      .execute();
  }
}

/** Clients are read-only here: an enabled app with a generated secret is a client. */
function clientAdapter(db: Kysely<OidcDatabase>): Adapter {
  const readOnly = async () => undefined;
  return {
    find: clientLookup(db),
    findByUid: readOnly,
    findByUserCode: readOnly,
    upsert: readOnly,
    consume: readOnly,
    destroy: readOnly,
    revokeByGrantId: readOnly,
  };
}
