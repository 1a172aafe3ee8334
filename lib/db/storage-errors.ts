import type {
  CompiledQuery,
  DatabaseConnection,
  DatabaseIntrospector,
  Dialect,
  DialectAdapter,
  Driver,
  Kysely,
  QueryCompiler,
  QueryResult,
  TransactionSettings,
} from "kysely";

/**
 * The storage port's own failure: the database could not be reached or read (locked, unreadable, corrupt,
 * refused, gone), a fault of the storage and not of the request. A database adapter throws it in place of its
 * driver's error (kept as `cause`); the HTTP layer answers it with 503 UNAVAILABLE, anything else with 500.
 */
export class StorageUnavailableError extends Error {
  constructor(override readonly cause: unknown) {
    super(`storage unavailable: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = "StorageUnavailableError";
  }
}

const codeOf = (e: unknown): string => {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : "";
};

/**
 * SQLite's result codes of a storage fault (its extended codes too): the file cannot be opened, is locked by
 * another process, cannot be read or written (a full disk too), is not a database or is corrupt.
 */
export function sqliteUnavailable(e: unknown): boolean {
  return /^SQLITE_(CANTOPEN|BUSY|IOERR|NOTADB|CORRUPT|READONLY|FULL)/.test(codeOf(e));
}

/**
 * PostgreSQL's SQLSTATEs of a storage fault (connection exceptions, class 08; the server shutting down, 57P01–03;
 * too many connections, 53300; the database does not exist, 3D000) and a server that cannot be reached at all
 * (the socket's ECONNREFUSED, ENOTFOUND, ETIMEDOUT, ECONNRESET). Any PostgreSQL driver: pg, postgres.js, PGlite.
 */
export function postgresUnavailable(e: unknown): boolean {
  return /^(08[0-9A-Z]{3}|57P0[1-3]|53300|3D000|ECONNREFUSED|ENOTFOUND|ETIMEDOUT|ECONNRESET)$/.test(
    codeOf(e),
  );
}

/** `e` as a `StorageUnavailableError` when `isUnavailable` says it is one; else `e` itself. */
export function classifyStorageError(e: unknown, isUnavailable: (e: unknown) => boolean): unknown {
  return e instanceof StorageUnavailableError || !isUnavailable(e) ? e : new StorageUnavailableError(e);
}

/**
 * A Kysely dialect whose driver errors of a storage fault (as `isUnavailable` tells them) are thrown as
 * `StorageUnavailableError`: for a dialect whose driver unirank does not own, such as Kysely's `PostgresDialect`
 * over `pg` (`classifyStorageErrors(new PostgresDialect({ pool }), postgresUnavailable)`).
 */
export function classifyStorageErrors(dialect: Dialect, isUnavailable: (e: unknown) => boolean): Dialect {
  const rethrow = (e: unknown): never => {
    throw classifyStorageError(e, isUnavailable);
  };
  const connection = (c: DatabaseConnection): DatabaseConnection => ({
    executeQuery: <R>(compiled: CompiledQuery): Promise<QueryResult<R>> =>
      c.executeQuery<R>(compiled).catch(rethrow),
    streamQuery: <R>(compiled: CompiledQuery, chunkSize?: number) => c.streamQuery<R>(compiled, chunkSize),
  });
  const inner = new WeakMap<DatabaseConnection, DatabaseConnection>();
  const unwrap = (c: DatabaseConnection) => inner.get(c) ?? c;
  return {
    createAdapter: (): DialectAdapter => dialect.createAdapter(),
    createQueryCompiler: (): QueryCompiler => dialect.createQueryCompiler(),
    createIntrospector: (db: Kysely<unknown>): DatabaseIntrospector => dialect.createIntrospector(db),
    createDriver: (): Driver => {
      const driver = dialect.createDriver();
      const wrapped: Driver = {
        init: () => driver.init().catch(rethrow),
        acquireConnection: async () => {
          const c = await driver.acquireConnection().catch(rethrow);
          const outer = connection(c);
          inner.set(outer, c);
          return outer;
        },
        beginTransaction: (c: DatabaseConnection, settings: TransactionSettings) =>
          driver.beginTransaction(unwrap(c), settings).catch(rethrow),
        commitTransaction: (c: DatabaseConnection) => driver.commitTransaction(unwrap(c)).catch(rethrow),
        rollbackTransaction: (c: DatabaseConnection) => driver.rollbackTransaction(unwrap(c)).catch(rethrow),
        releaseConnection: (c: DatabaseConnection) => driver.releaseConnection(unwrap(c)),
        destroy: () => driver.destroy(),
      };
      const { savepoint, rollbackToSavepoint, releaseSavepoint } = driver;
      if (savepoint)
        wrapped.savepoint = (c, name, compile) =>
          savepoint.call(driver, unwrap(c), name, compile).catch(rethrow);
      if (rollbackToSavepoint)
        wrapped.rollbackToSavepoint = (c, name, compile) =>
          rollbackToSavepoint.call(driver, unwrap(c), name, compile).catch(rethrow);
      if (releaseSavepoint)
        wrapped.releaseSavepoint = (c, name, compile) =>
          releaseSavepoint.call(driver, unwrap(c), name, compile).catch(rethrow);
      return wrapped;
    },
  };
}
