// Kysely's PostgreSQL driver, made to outlive dropped connections (a database restart or failover,
// a terminated backend): connecting is retried with a short backoff, and a query whose connection
// died is run again on a fresh one where that is safe: a SELECT outside a transaction, or any
// statement outside a transaction that provably never reached the server. Anything else (a write
// that may have been applied, a statement inside a transaction) fails, and the request answers 503.
import {
  PostgresDialect,
  SelectQueryNode,
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import { connectionLost, neverSent } from './availability';

/** Waits before each new attempt: about 1.6 s in all, the length of a quick database restart. */
const BACKOFF_MS = [50, 150, 400, 1_000];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function retrying<T>(attempt: () => Promise<T>, retryable: (error: unknown) => boolean, beforeRetry?: () => Promise<void>): Promise<T> {
  for (let tries = 0; ; tries += 1) {
    try {
      return await attempt();
    } catch (error) {
      const wait = BACKOFF_MS[tries];
      if (wait === undefined || !retryable(error)) throw error;
      await sleep(wait);
      await beforeRetry?.();
    }
  }
}

class ResilientConnection implements DatabaseConnection {
  inTransaction = false;
  /** The pool's connection; none after a reconnect that failed (the dead one was given back). */
  private current: DatabaseConnection | undefined;

  constructor(
    inner: DatabaseConnection,
    private readonly driver: ResilientDriver,
  ) {
    this.current = inner;
  }

  get inner(): DatabaseConnection {
    if (!this.current) throw new Error('Connection terminated: no database connection could be made');
    return this.current;
  }

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const safeToRepeat = (error: unknown) => !this.inTransaction && (neverSent(error) || (connectionLost(error) && SelectQueryNode.is(query.query)));
    return retrying(
      () => this.inner.executeQuery<R>(query),
      safeToRepeat,
      () => this.reconnect(),
    );
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(query, chunkSize);
  }

  /** Gives the dead connection back (the pool discards it) and takes a fresh one. */
  async reconnect(): Promise<void> {
    await this.release();
    this.current = await this.driver.connect();
  }

  async release(): Promise<void> {
    const connection = this.current;
    this.current = undefined;
    this.inTransaction = false;
    if (connection) await this.driver.inner.releaseConnection(connection);
  }
}

class ResilientDriver implements Driver {
  constructor(readonly inner: Driver) {}

  init(): Promise<void> {
    return this.inner.init();
  }
  destroy(): Promise<void> {
    return this.inner.destroy();
  }

  /** A connection from the pool; a failed connect sent nothing, so it is always retried. */
  connect(): Promise<DatabaseConnection> {
    return retrying(() => this.inner.acquireConnection(), connectionLost);
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return new ResilientConnection(await this.connect(), this);
  }

  releaseConnection(connection: ResilientConnection): Promise<void> {
    return connection.release();
  }

  async beginTransaction(connection: ResilientConnection, settings: TransactionSettings): Promise<void> {
    // Nothing is done before BEGIN succeeds: it may be tried again on a fresh connection.
    await retrying(
      () => this.inner.beginTransaction(connection.inner, settings),
      connectionLost,
      () => connection.reconnect(),
    );
    connection.inTransaction = true;
  }

  async commitTransaction(connection: ResilientConnection): Promise<void> {
    try {
      await this.inner.commitTransaction(connection.inner);
    } finally {
      connection.inTransaction = false;
    }
  }

  async rollbackTransaction(connection: ResilientConnection): Promise<void> {
    try {
      await this.inner.rollbackTransaction(connection.inner);
    } catch (error) {
      // PostgreSQL rolls back the transaction of a connection that ended: the error that made the
      // caller roll back is the one to report.
      if (!connectionLost(error)) throw error;
    } finally {
      connection.inTransaction = false;
    }
  }

  savepoint(connection: ResilientConnection, name: string, compileQuery: QueryCompiler['compileQuery']): Promise<void> {
    return this.inner.savepoint!(connection.inner, name, compileQuery);
  }

  rollbackToSavepoint(connection: ResilientConnection, name: string, compileQuery: QueryCompiler['compileQuery']): Promise<void> {
    return this.inner.rollbackToSavepoint!(connection.inner, name, compileQuery);
  }

  releaseSavepoint(connection: ResilientConnection, name: string, compileQuery: QueryCompiler['compileQuery']): Promise<void> {
    return this.inner.releaseSavepoint!(connection.inner, name, compileQuery);
  }
}

/** PostgresDialect with the driver above. */
export class ResilientPostgresDialect extends PostgresDialect {
  override createDriver(): Driver {
    return new ResilientDriver(super.createDriver());
  }
}
