import type { Database as SqliteDatabase, Statement } from "bun:sqlite";
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
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from "kysely";

/**
 * Kysely dialect for bun:sqlite. Prepared statements are cached per SQL text (bun's `query()`, and our own cache for
 * texts too long for it), which the published adapter does not do; one connection, serialised by a mutex, as
 * SQLite wants.
 */
export class BunSqliteDialect implements Dialect {
  constructor(private readonly database: SqliteDatabase) {}
  createDriver(): Driver {
    return new BunSqliteDriver(this.database);
  }
  createQueryCompiler(): QueryCompiler {
    return new SqliteQueryCompiler();
  }
  createAdapter(): DialectAdapter {
    return new BunSqliteAdapter();
  }
  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new SqliteIntrospector(db);
  }
}

/**
 * SQLite runs DDL in transactions; saying so makes Kysely's Migrator migrate inside one (`begin immediate`), which
 * is both atomic and the lock between several processes migrating one file at once (the others wait, then find
 * the schema current).
 */
class BunSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

class BunSqliteDriver implements Driver {
  readonly #connection: BunSqliteConnection;
  #lock: Promise<void> = Promise.resolve();

  constructor(private readonly database: SqliteDatabase) {
    this.#connection = new BunSqliteConnection(database);
  }
  async init(): Promise<void> {}
  async acquireConnection(): Promise<DatabaseConnection> {
    let release!: () => void;
    const previous = this.#lock;
    this.#lock = new Promise((resolve) => {
      release = resolve;
    });
    await previous;
    this.#connection.release = release;
    return this.#connection;
  }
  async beginTransaction(c: DatabaseConnection): Promise<void> {
    await c.executeQuery(CompiledQuery.raw("begin immediate"));
  }
  async commitTransaction(c: DatabaseConnection): Promise<void> {
    await c.executeQuery(CompiledQuery.raw("commit"));
  }
  async rollbackTransaction(c: DatabaseConnection): Promise<void> {
    await c.executeQuery(CompiledQuery.raw("rollback"));
  }
  async releaseConnection(c: DatabaseConnection): Promise<void> {
    (c as BunSqliteConnection).release?.();
  }
  async destroy(): Promise<void> {
    this.database.close();
  }
}

type Params = Parameters<Statement["all"]>;

/**
 * bun's `query()` caches prepared statements per SQL text but never one over 64 KiB, such as the import's 500-row
 * INSERT, which was then prepared again for every batch (docs/performance.md). Those long texts are kept here
 * (least recently used dropped first). The others stay with bun's cache: keeping every statement here made the
 * health check miss a database file replaced under the server (test/health.test.ts), for a reason not yet found.
 */
const LONG_TEXT = 65536;
const LONG_STATEMENTS = 16;

class BunSqliteConnection implements DatabaseConnection {
  release?: () => void;
  readonly #statements = new Map<string, Statement>();
  constructor(private readonly db: SqliteDatabase) {}

  #statement(text: string): Statement {
    if (text.length <= LONG_TEXT) return this.db.query(text);
    const cache = this.#statements;
    let stmt = cache.get(text);
    if (stmt !== undefined) {
      cache.delete(text);
    } else {
      stmt = this.db.prepare(text);
      if (cache.size >= LONG_STATEMENTS) {
        const [oldest, old] = cache.entries().next().value as [string, Statement];
        cache.delete(oldest);
        old.finalize();
      }
    }
    cache.set(text, stmt);
    return stmt;
  }

  executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const stmt = this.#statement(compiled.sql);
    const params = compiled.parameters as unknown as Params;
    if (stmt.columnNames.length > 0) return Promise.resolve({ rows: stmt.all(...params) as R[] });
    const result = stmt.run(...params);
    return Promise.resolve({
      rows: [],
      numAffectedRows: BigInt(result.changes),
      insertId: BigInt(result.lastInsertRowid),
    });
  }

  async *streamQuery<R>(compiled: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    const stmt = this.#statement(compiled.sql);
    for (const row of stmt.iterate(...(compiled.parameters as unknown as Params))) yield { rows: [row as R] };
  }
}
