// One transaction for everything a change writes, however its code reaches the database. A unit of
// work (`UnitOfWork.run`) takes one connection and begins a transaction on it; every query made in
// the unit's asynchronous context, through any Kysely instance of this database (the context's db,
// the session service's, a helper's own `db.transaction()`, which becomes a savepoint), runs on that
// connection. So a change, its audit record and the webhook deliveries derived from it (server/audit.ts)
// commit together or not at all, without threading a transaction through every helper. Work to do
// once the data is committed (waking the outbox) waits for the commit and is dropped on a rollback.
import { ScopedValue } from '../async-scope';
import {
  CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';

interface Unit {
  connection: DatabaseConnection;
  /** False once the unit committed or rolled back: work it started later runs on its own. */
  open: boolean;
  savepoints: number;
  afterCommit: (() => void)[];
}

const units = new ScopedValue<Unit>('unit of work');

/** The unit's connection, handed to each query of the unit; a transaction begun on it is a savepoint. */
class UnitConnection implements DatabaseConnection {
  savepoint: string | undefined;
  constructor(readonly unit: Unit) {}
  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return this.unit.connection.executeQuery<R>(query);
  }
  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.unit.connection.streamQuery<R>(query, chunkSize);
  }
}

const openUnit = () => {
  const unit = units.getStore();
  return unit?.open ? unit : undefined;
};

class UnitOfWorkDriver implements Driver {
  private initializing: Promise<void> | undefined;
  constructor(
    readonly inner: Driver,
    private readonly beginSql: string | undefined,
  ) {}

  /** Once, whether Kysely or a unit needs the connection first. */
  init(): Promise<void> {
    this.initializing ??= this.inner.init();
    return this.initializing;
  }
  destroy(): Promise<void> {
    return this.inner.destroy();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const unit = openUnit();
    return unit ? new UnitConnection(unit) : this.inner.acquireConnection();
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    if (!(connection instanceof UnitConnection)) await this.inner.releaseConnection(connection);
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    if (!(connection instanceof UnitConnection)) return this.inner.beginTransaction(connection, settings);
    connection.unit.savepoints += 1;
    connection.savepoint = `unit_savepoint_${connection.unit.savepoints}`;
    await connection.executeQuery(CompiledQuery.raw(`savepoint ${connection.savepoint}`));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    if (!(connection instanceof UnitConnection)) return this.inner.commitTransaction(connection);
    await connection.executeQuery(CompiledQuery.raw(`release savepoint ${connection.savepoint}`));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    if (!(connection instanceof UnitConnection)) return this.inner.rollbackTransaction(connection);
    await connection.executeQuery(CompiledQuery.raw(`rollback to savepoint ${connection.savepoint}`));
  }

  savepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    return this.inner.savepoint!(this.underlying(connection), name, compile);
  }
  rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    return this.inner.rollbackToSavepoint!(this.underlying(connection), name, compile);
  }
  releaseSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    return this.inner.releaseSavepoint!(this.underlying(connection), name, compile);
  }

  private async nested<T>(unit: Unit, work: () => Promise<T>): Promise<T> {
    unit.savepoints += 1;
    const name = `unit_savepoint_${unit.savepoints}`;
    const pending = unit.afterCommit.length;
    await unit.connection.executeQuery(CompiledQuery.raw(`savepoint ${name}`));
    try {
      const result = await work();
      await unit.connection.executeQuery(CompiledQuery.raw(`release savepoint ${name}`));
      return result;
    } catch (error) {
      await unit.connection.executeQuery(CompiledQuery.raw(`rollback to savepoint ${name}`));
      unit.afterCommit.length = pending;
      throw error;
    }
  }

  private underlying(connection: DatabaseConnection): DatabaseConnection {
    return connection instanceof UnitConnection ? connection.unit.connection : connection;
  }

  /** Runs `work` as one transaction; inside a unit, as a savepoint of it (so a caller that catches
   *  the failure of a nested change, as an import does per row, keeps the unit usable). */
  async run<T>(work: () => Promise<T>): Promise<T> {
    const outer = openUnit();
    if (outer) return this.nested(outer, work);
    await this.init();
    const connection = await this.inner.acquireConnection();
    const unit: Unit = { connection, open: true, savepoints: 0, afterCommit: [] };
    try {
      if (this.beginSql) await connection.executeQuery(CompiledQuery.raw(this.beginSql));
      else await this.inner.beginTransaction(connection, {});
      let result: T;
      try {
        result = await units.run(unit, work);
      } catch (error) {
        unit.open = false;
        await this.inner.rollbackTransaction(connection);
        throw error;
      }
      unit.open = false;
      await this.inner.commitTransaction(connection);
      for (const callback of unit.afterCommit) callback();
      return result;
    } finally {
      unit.open = false;
      await this.inner.releaseConnection(connection);
    }
  }
}

/** A dialect whose driver runs units of work (see above). `beginSql` replaces the inner driver's
 *  BEGIN (SQLite's `begin immediate`: the unit writes, so it takes the write lock at once and waits
 *  for it with the busy timeout, instead of failing when a read would later have to become a write). */
export class UnitOfWorkDialect implements Dialect {
  driver: UnitOfWorkDriver | undefined;
  constructor(
    private readonly inner: Dialect,
    private readonly beginSql?: string,
  ) {}
  createDriver(): Driver {
    this.driver = new UnitOfWorkDriver(this.inner.createDriver(), this.beginSql);
    return this.driver;
  }
  createQueryCompiler(): QueryCompiler {
    return this.inner.createQueryCompiler();
  }
  createAdapter(): DialectAdapter {
    return this.inner.createAdapter();
  }
  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return this.inner.createIntrospector(db);
  }
}

/** Runs changes as units of work on the database of `dialect`. */
export interface UnitOfWork {
  /** Runs `work` in one transaction: everything it writes commits when it resolves, nothing when it
   *  throws. Called inside a unit, it is part of that unit. */
  run<T>(work: () => Promise<T>): Promise<T>;
}

export const unitOfWork = (dialect: UnitOfWorkDialect): UnitOfWork => ({
  run: (work) => {
    if (!dialect.driver) throw new Error('the database is not open');
    return dialect.driver.run(work);
  },
});

/** Whether the caller runs inside a unit of work. */
export const inUnitOfWork = (): boolean => openUnit() !== undefined;

/** Runs `callback` once the current unit committed (never if it rolls back); at once outside a unit. */
export function afterCommit(callback: () => void): void {
  const unit = openUnit();
  if (unit) unit.afterCommit.push(callback);
  else callback();
}
