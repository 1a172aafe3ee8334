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
 * Kysely dialect for bun:sqlite. Prepared statements are cached per SQL text, which the published adapter does
 * not do; one connection, serialised by a mutex, as SQLite wants.
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
 * Statements kept per connection, least recently used dropped first. bun's own `query()` cache keeps 20 and
 * skips texts over 64 KiB (the import's 500-row INSERT), which made busy processes prepare statements again.
 */
const STATEMENT_CACHE = 500;

class BunSqliteConnection implements DatabaseConnection {
  release?: () => void;
  readonly #statements = new Map<string, Statement>();
  constructor(private readonly db: SqliteDatabase) {}

  #statement(text: string): Statement {
    const cache = this.#statements;
    let stmt = cache.get(text);
    if (stmt !== undefined) {
      cache.delete(text);
    } else {
      stmt = this.db.prepare(text);
      if (cache.size >= STATEMENT_CACHE) {
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
