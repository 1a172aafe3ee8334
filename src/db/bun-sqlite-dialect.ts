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
import { StorageUnavailableError, sqliteUnavailable } from "../../lib/index.ts";
import { HeldReadSnapshot, isPlainRead } from "./held-read-snapshot.ts";

/**
 * Kysely dialect for bun:sqlite. Prepared statements are cached per SQL text (bun's `query()`, and our own cache for
 * texts too long for it), which the published adapter does not do; one connection, serialised by a mutex, as
 * SQLite wants.
 */
export class BunSqliteDialect implements Dialect {
  readonly #writes: WritesState = { stopped: null };
  /**
   * `busyTimeoutMs`: how long a statement that finds the file locked by another process (SQLITE_BUSY) is retried,
   * asynchronously, before its error is thrown. The connection should have `busy_timeout = 0`, so that SQLite
   * itself never sleeps (which would stop the event loop); 0 here throws at once. `readWindowMs`: how long plain
   * reads share one read transaction (`HeldReadSnapshot`); 0, the default, gives each its own.
   */
  constructor(
    private readonly database: SqliteDatabase,
    private readonly busyTimeoutMs = 0,
    private readonly readWindowMs = 0,
  ) {}
  #driver: BunSqliteDriver | undefined;
  createDriver(): Driver {
    this.#driver = new BunSqliteDriver(this.database, this.busyTimeoutMs, this.#writes, this.readWindowMs);
    return this.#driver;
  }
  /**
   * Runs a compiled plain read at once when the connection is free (no transaction or other caller holds it), or
   * gives undefined: the handle's `DirectRead` (lib/db/direct-reads.ts).
   */
  readNow<R>(compiled: CompiledQuery<R>): R[] | undefined {
    return this.#driver?.readNow(compiled);
  }
  /**
   * Stops every write on this connection (SQLite's `query_only`: a write fails with SQLITE_READONLY naming
   * `reason`), or lets them go on again with null. For a file that must no longer be written: replaced or deleted
   * under the server, or made unwritable (a write there could grow its WAL index, which SQLite maps into memory:
   * growing a file it may not grow ends the process with SIGBUS).
   */
  stopWrites(reason: string | null): void {
    if (this.#writes.stopped === reason) return;
    this.#writes.stopped = reason;
    this.database.exec(`pragma query_only = ${reason === null ? "off" : "on"}`);
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

interface WritesState {
  stopped: string | null;
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
  readonly #snapshot: HeldReadSnapshot;
  #lock: Promise<void> = Promise.resolve();
  /** A caller holds the connection: from its `acquireConnection` until its release. */
  #held = false;

  constructor(
    private readonly database: SqliteDatabase,
    busyTimeoutMs: number,
    writes: WritesState,
    readWindowMs: number,
  ) {
    this.#snapshot = new HeldReadSnapshot(database, readWindowMs);
    this.#connection = new BunSqliteConnection(
      database,
      busyTimeoutMs,
      (ms) => this.#pause(ms),
      writes,
      this.#snapshot,
    );
  }
  async init(): Promise<void> {}
  async acquireConnection(): Promise<DatabaseConnection> {
    let release!: () => void;
    const previous = this.#lock;
    this.#lock = new Promise((resolve) => {
      release = () => {
        this.#held = false;
        resolve();
      };
    });
    await previous;
    this.#held = true;
    this.#connection.release = release;
    return this.#connection;
  }
  /** A plain read run at once, unless a caller holds the connection (`readNow` of the dialect). */
  readNow<R>(compiled: CompiledQuery<R>): R[] | undefined {
    return this.#held ? undefined : this.#connection.readNow(compiled);
  }
  /** Lets the other callers of this handle run for `ms` (a statement outside a transaction waits on a lock). */
  async #pause(ms: number): Promise<void> {
    this.#connection.release?.();
    await Bun.sleep(ms);
    await this.acquireConnection();
  }
  async beginTransaction(c: DatabaseConnection): Promise<void> {
    await c.executeQuery(CompiledQuery.raw("begin immediate"));
  }
  async commitTransaction(c: DatabaseConnection): Promise<void> {
    await c.executeQuery(CompiledQuery.raw("commit"));
  }
  async rollbackTransaction(c: DatabaseConnection): Promise<void> {
    // SQLite rolls a transaction back by itself after some errors (SQLITE_FULL, SQLITE_IOERR, SQLITE_NOMEM …):
    // a second rollback would fail with "no transaction is active" and hide the error that matters.
    if (!this.database.inTransaction) return;
    await c.executeQuery(CompiledQuery.raw("rollback"));
  }
  async releaseConnection(c: DatabaseConnection): Promise<void> {
    (c as BunSqliteConnection).release?.();
  }
  async destroy(): Promise<void> {
    this.#snapshot.end();
    this.database.close();
  }
}

type Params = Parameters<Statement["all"]>;

/**
 * bun's `query()` caches prepared statements per SQL text but never one over 64 KiB, such as the import's 500-row
 * INSERT, which was then prepared again for every batch (docs/performance.md). Those long texts are kept here
 * (least recently used dropped first). The others stay with bun's cache: keeping every statement here made the
 * health check miss a database file replaced under the server (test/process/health.test.ts), for a reason not yet found.
 */
const LONG_TEXT = 65536;
const LONG_STATEMENTS = 16;

/** SQLITE_BUSY and its extended codes: another connection holds the lock this statement needs. */
function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && code.startsWith("SQLITE_BUSY");
}

/** A storage fault (the file locked past the wait, unreadable, not a database) as the port's own error. */
const storageError = (e: unknown): unknown => (sqliteUnavailable(e) ? new StorageUnavailableError(e) : e);

/**
 * What a failed SQLite write says about the storage, in words fit for `/health` (no driver text), or null when
 * it is no storage fault.
 */
export function sqliteStorageFault(error: unknown): string | null {
  const cause = error instanceof StorageUnavailableError ? error.cause : error;
  const code = (cause as { code?: unknown } | null)?.code;
  if (typeof code !== "string") return null;
  if (code.startsWith("SQLITE_FULL")) return "storage full";
  if (
    code.startsWith("SQLITE_READONLY") ||
    code.startsWith("SQLITE_CANTOPEN") ||
    code.startsWith("SQLITE_PERM")
  )
    return "storage not writable";
  if (code.startsWith("SQLITE_IOERR")) return "storage I/O error";
  if (code.startsWith("SQLITE_BUSY")) return "storage locked by another process";
  if (code.startsWith("SQLITE_CORRUPT") || code.startsWith("SQLITE_NOTADB")) return "storage corrupt";
  return null;
}

/**
 * An error of SQLite with its code in its message (`SQLITE_FULL: database or disk is full`), so that logs and
 * messages name the cause; while writes are stopped (`stopWrites`), with the reason too.
 */
function named(error: unknown, writesStopped: string | null): unknown {
  const e = error as { code?: unknown; message?: unknown } | null;
  if (!(error instanceof Error) || typeof e?.code !== "string" || !e.code.startsWith("SQLITE_")) return error;
  if (!error.message.startsWith(e.code)) error.message = `${e.code}: ${error.message}`;
  if (
    writesStopped !== null &&
    e.code.startsWith("SQLITE_READONLY") &&
    !error.message.includes(writesStopped)
  )
    error.message = `${error.message} (writes stopped: ${writesStopped})`;
  return error;
}

/** How a statement runs: `read` (a plain read, `isPlainRead`), `rows` (another that returns rows) or `run`. */
type StatementKind = "read" | "rows" | "run";

class BunSqliteConnection implements DatabaseConnection {
  release?: () => void;
  readonly #statements = new Map<string, Statement>();
  /** Each statement's kind, found once: bun computes `columnNames` anew on every read (docs/performance.md). */
  readonly #kinds = new WeakMap<Statement, StatementKind>();
  constructor(
    private readonly db: SqliteDatabase,
    private readonly busyTimeoutMs: number,
    private readonly pause: (ms: number) => Promise<void>,
    private readonly writes: WritesState,
    private readonly snapshot: HeldReadSnapshot,
  ) {}

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

  /**
   * Runs a statement; one that finds the file locked (SQLITE_BUSY, nothing done) is tried again after 1, 2, 4 …
   * 32 ms until `busyTimeoutMs` has passed. Outside a transaction (a single statement, or the `begin immediate`
   * that opens one) the handle is free for others meanwhile; inside one it stays held, as the transaction needs.
   */
  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const deadline = performance.now() + this.busyTimeoutMs;
    for (let delay = 1; ; delay = Math.min(delay * 2, 32)) {
      try {
        return this.#execute<R>(compiled);
      } catch (e) {
        this.snapshot.end();
        // A storage fault (a lock held past the wait, an unreadable file) is the port's StorageUnavailableError.
        if (!isBusy(e) || performance.now() + delay > deadline)
          throw storageError(named(e, this.writes.stopped));
      }
      if (this.db.inTransaction) await Bun.sleep(delay);
      else await this.pause(delay);
    }
  }

  #kindOf(stmt: Statement, sql: string): StatementKind {
    let kind = this.#kinds.get(stmt);
    if (kind === undefined) {
      kind = isPlainRead(stmt, sql) ? "read" : stmt.columnNames.length > 0 ? "rows" : "run";
      this.#kinds.set(stmt, kind);
    }
    return kind;
  }

  /**
   * A plain read run now, in the held read snapshot as `executeQuery` runs one; undefined for any other statement
   * and for a read that fails, which `executeQuery` then runs again with its retries and its errors.
   */
  readNow<R>(compiled: CompiledQuery<R>): R[] | undefined {
    try {
      const stmt = this.#statement(compiled.sql);
      if (this.#kindOf(stmt, compiled.sql) !== "read") return undefined;
      this.snapshot.before(true);
      return stmt.all(...(compiled.parameters as unknown as Params)) as R[];
    } catch {
      this.snapshot.end();
      return undefined;
    }
  }

  #execute<R>(compiled: CompiledQuery): QueryResult<R> {
    const stmt = this.#statement(compiled.sql);
    const kind = this.#kindOf(stmt, compiled.sql);
    this.snapshot.before(kind === "read");
    const params = compiled.parameters as unknown as Params;
    if (kind !== "run") return { rows: stmt.all(...params) as R[] };
    const result = stmt.run(...params);
    return {
      rows: [],
      numAffectedRows: BigInt(result.changes),
      insertId: BigInt(result.lastInsertRowid),
    };
  }

  async *streamQuery<R>(compiled: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    try {
      // A stream reads across awaits, in a transaction of its own.
      this.snapshot.end();
      const stmt = this.#statement(compiled.sql);
      for (const row of stmt.iterate(...(compiled.parameters as unknown as Params)))
        yield { rows: [row as R] };
    } catch (e) {
      throw storageError(e);
    }
  }
}
