// oidc-provider's storage adapter over our database (SQLite or PostgreSQL through Kysely): one row
// per model and id, so every server process sees the same codes, tokens, sessions and grants.
// Clients are not stored here: they are the apps (see clients.ts).
import type { Kysely } from 'kysely';
import type { Adapter, AdapterPayload, KoaContextWithOIDC } from 'oidc-provider';
import { oidcLibrary } from './library';
import { couldBeStored, type OidcDatabase } from './tables';
import { clientLookup } from './clients';
import { compiledStatement } from '../db/statement';
import type { Engine } from '../db/connect';
import {
  forgetReadAhead,
  foundAsAccessToken,
  holdWrite,
  noteAccessTokenRead,
  type PayloadRow,
  type PayloadWrite,
  READ_AHEAD_MODELS,
  readWithGrant,
  takeClientReadAhead,
  takeHeldWrites,
  takeReadAhead,
  tokenWithGrantStatement,
} from './read-ahead';

/** Stores a new authorization code (`write`) together with whatever else that sign-in to an app
 *  records, in one transaction (app-sign-in-record.ts). */
export type CodeWriter = (code: PayloadWrite, write: () => Promise<void>) => Promise<void>;

/** The person and app of a grant that ended. */
interface EndedGrant {
  accountId: string;
  clientId: string;
}

/** Ends a grant (`remove`: deletes it with everything issued under it, answering the grant when its
 *  row was still there) together with the audit record of its end, in one transaction; `reason`
 *  when the caller knows it (grant-end-record.ts). */
export type GrantEnder = (remove: () => Promise<EndedGrant | undefined>, reason?: 'refresh_token_reused' | 'code_reused') => Promise<void>;

/**
 * The provider's storage: its adapter, and the middleware that writes a request's held token
 * writes before its answer. An access or refresh token issued inside a provider request is not
 * written when the provider saves it but with the request's other new tokens, in one statement,
 * before the answer goes out (or before the request's next read or write through the adapter):
 * a refresh grant writes its new refresh and access tokens in one commit instead of two. What is
 * answered is only ever a token already stored. The consume that detects a reused refresh token
 * or code is never held: it runs when the provider asks, as before.
 */
export function payloadStorage(db: Kysely<OidcDatabase>, engine: Engine, writeCode: CodeWriter, endGrant: GrantEnder) {
  const statements = payloadStatements(db, engine);
  const writeOn = async (runner: Pick<Kysely<OidcDatabase>, 'executeQuery'>, rows: PayloadWrite[]) => {
    for (let first = 0; first < rows.length; first += MAX_ROWS_PER_WRITE) {
      const chunk = rows.slice(first, first + MAX_ROWS_PER_WRITE);
      await runner.executeQuery(statements.upserts[chunk.length - 1]!(slotValues(chunk)));
    }
  };
  const write = (rows: PayloadWrite[]) => writeOn(db, rows);
  const writeHeld = () => write(takeHeldWrites());
  return {
    adapter: (model: string): Adapter =>
      model === 'Client' ? clientAdapter(db) : new PayloadAdapter(db, statements, model, write, writeHeld, writeCode, endGrant),
    /**
     * A refresh grant answered without the provider's pipeline (refresh-grant.ts): consumes the
     * presented token and writes the tokens this request holds in one transaction, one commit
     * instead of two. The consume is the same single conditional UPDATE as the adapter's: when
     * another request consumed the token first, this writes nothing and answers false (the caller
     * then takes the adapter's consume, which finds the reuse and revokes the grant).
     */
    consumeWritingHeld: async (model: string, id: string): Promise<boolean> => {
      const rows = takeHeldWrites();
      forgetReadAhead();
      return db.transaction().execute(async (transaction) => {
        const marked = await transaction.executeQuery(statements.consume({ model, id, at: now() }));
        if (marked.numAffectedRows !== 1n) return false;
        await writeOn(transaction, rows);
        return true;
      });
    },
    /** Provider middleware (the innermost of ours): the held writes go before the answer; when
     *  they fail, the answer is the provider's server_error (a 503 when the database is away,
     *  unavailable.ts) instead of tokens that were never stored. A request that threw answers no
     *  token: its held writes are dropped. */
    writeHeldBeforeAnswer: async (koa: KoaContextWithOIDC, next: () => Promise<void>): Promise<void> => {
      try {
        await next();
      } catch (error) {
        takeHeldWrites();
        throw error;
      }
      try {
        await writeHeld();
      } catch (error) {
        koa.app.emit('server_error', koa, error);
        koa.status = 500;
        koa.type = 'json';
        koa.body = { error: 'server_error', error_description: 'oops! something went wrong' };
      }
    },
  };
}

/** The models whose writes wait for the request's answer: the tokens a grant issues. */
const HELD_MODELS = new Set(['AccessToken', 'RefreshToken']);

/** Rows per write statement (a refresh or code grant issues two tokens). */
const MAX_ROWS_PER_WRITE = 2;

const WRITTEN_COLUMNS = ['model', 'id', 'payload', 'grantId', 'accountId', 'uid', 'userCode', 'expiresAt'] as const;

/** The values of a write of `rows`, by slot name (column and row index, see rowsUpsert). */
function slotValues(rows: PayloadWrite[]): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  rows.forEach((row, index) => {
    for (const column of WRITTEN_COLUMNS) values[`${column}${index}`] = row[column];
  });
  return values;
}

/** The provider's own clock is real time (the tokens it signs carry it), so expiry follows it too. */
const now = () => Date.now();

const live = (row: PayloadRow | null | undefined): row is PayloadRow => row != null && (row.expiresAt === null || row.expiresAt > now());

/** An upsert of `count` rows by model and id in one statement (a replaced row keeps its consumedAt). */
function rowsUpsert(db: Kysely<OidcDatabase>, count: number) {
  return compiledStatement<Record<string, unknown>>({ preparedOnPostgres: true })((slot) =>
    db
      .insertInto('oidcPayloads')
      .values(
        Array.from({ length: count }, (_, index) => ({
          model: slot(`model${index}`),
          id: slot(`id${index}`),
          payload: slot(`payload${index}`),
          grantId: slot(`grantId${index}`),
          accountId: slot(`accountId${index}`),
          uid: slot(`uid${index}`),
          userCode: slot(`userCode${index}`),
          expiresAt: slot(`expiresAt${index}`),
          consumedAt: null,
        })),
      )
      .onConflict((conflict) =>
        conflict.columns(['model', 'id']).doUpdateSet((eb) => ({
          payload: eb.ref('excluded.payload'),
          grantId: eb.ref('excluded.grantId'),
          accountId: eb.ref('excluded.accountId'),
          uid: eb.ref('excluded.uid'),
          userCode: eb.ref('excluded.userCode'),
          expiresAt: eb.ref('excluded.expiresAt'),
        })),
      ),
  );
}

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
    /** upserts[n - 1] writes n rows. */
    upserts: Array.from({ length: MAX_ROWS_PER_WRITE }, (_, index) => rowsUpsert(db, index + 1)),
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
    private readonly write: (rows: PayloadWrite[]) => Promise<void>,
    /** Writes what this request holds (see payloadStorage): before any other read or write of it. */
    private readonly writeHeld: () => Promise<void>,
    private readonly writeCode: CodeWriter,
    private readonly endGrant: GrantEnder,
  ) {}

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    forgetReadAhead();
    const row: PayloadWrite = {
      model: this.model,
      id,
      payload: JSON.stringify(payload),
      grantId: payload.grantId ?? null,
      accountId: payload.accountId ?? null,
      uid: payload.uid ?? null,
      userCode: payload.userCode ?? null,
      expiresAt: expiresIn ? now() + expiresIn * 1000 : null,
    };
    if (HELD_MODELS.has(this.model) && holdWrite(row)) return;
    await this.writeHeld();
    // A code is issued only at the end of a person's sign-in to an app, never rewritten.
    if (this.model === 'AuthorizationCode') return this.writeCode(row, () => this.write([row]));
    await this.write([row]);
  }

  private async findBy(column: 'id' | 'uid' | 'userCode', value: string): Promise<AdapterPayload | undefined> {
    await this.writeHeld();
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
    await this.writeHeld();
    forgetReadAhead();
    const marked = await this.db.executeQuery(this.statements.consume({ model: this.model, id, at: now() }));
    if (marked.numAffectedRows === 1n) return;
    const row = await this.db.selectFrom('oidcPayloads').select('grantId').where('model', '=', this.model).where('id', '=', id).executeTakeFirst();
    if (row?.grantId) await this.revokeGrant(row.grantId, this.model === 'RefreshToken' ? 'refresh_token_reused' : 'code_reused');
    throw new (await oidcLibrary()).errors.InvalidGrant('already used');
  }

  /** A grant's destroy ends it as revokeByGrantId does (the provider destroys a grant only while
   *  revoking it, with its tokens). */
  async destroy(id: string): Promise<void> {
    if (this.model === 'Grant') return this.revokeGrant(id);
    await this.writeHeld();
    forgetReadAhead();
    await this.db.deleteFrom('oidcPayloads').where('model', '=', this.model).where('id', '=', id).execute();
  }

  /** The grant itself goes too (its own row carries no grant id): a token written by a request
   *  that was still running (the winner of a burst that a reuse just revoked) then leads nowhere. */
  revokeByGrantId(grantId: string): Promise<void> {
    return this.revokeGrant(grantId);
  }

  /** Deletes the grant and everything issued under it, with the audit record of its end written by
   *  whichever call deletes the grant's own row (the provider revokes through every token model at
   *  once, and destroys the grant besides). */
  private async revokeGrant(grantId: string, reason?: Parameters<GrantEnder>[1]): Promise<void> {
    await this.writeHeld();
    forgetReadAhead();
    await this.endGrant(async () => {
      const removed = await this.db
        .deleteFrom('oidcPayloads')
        .where((eb) => eb.or([eb('grantId', '=', grantId), eb.and([eb('model', '=', 'Grant'), eb('id', '=', grantId)])]))
        .returning(['model', 'payload'])
        .execute();
      const grant = removed.find((row) => row.model === 'Grant');
      return grant ? (JSON.parse(grant.payload) as EndedGrant) : undefined;
    }, reason);
  }
}

/** Clients are read-only here: an enabled app with a generated secret is a client. One read with
 *  the token of its request (the refresh grant's, refresh-grant.ts) is not read again. */
function clientAdapter(db: Kysely<OidcDatabase>): Adapter {
  const readOnly = async () => undefined;
  const lookup = clientLookup(db);
  return {
    find: async (id) => takeClientReadAhead(id) ?? lookup(id),
    findByUid: readOnly,
    findByUserCode: readOnly,
    upsert: readOnly,
    consume: readOnly,
    destroy: readOnly,
    revokeByGrantId: readOnly,
  };
}
