import { type ReservedSQL, SQL } from "bun";
import type { CompiledQuery, DatabaseConnection, Driver, QueryResult, TransactionSettings } from "kysely";
import { PostgresFamilyDialect, PostgresFamilyDriver } from "../../lib/db/postgres-family.ts";
import { classifyStorageError, postgresUnavailable, StorageUnavailableError } from "../../lib/index.ts";

/** How the dialect opens its pool. */
export interface BunPostgresOptions {
  /** A `postgres://` URL; its parameters (`sslmode`, `application_name`, ...) are Bun's to read. */
  url: string;
  /** Most connections of the pool. */
  max: number;
  /** Seconds to wait for a connection (reserved, or being opened) before failing as a storage fault. */
  acquireSeconds: number;
  /** Seconds an unused connection stays open. */
  idleSeconds: number;
}

/**
 * Kysely dialect over Bun's own PostgreSQL client (`Bun.SQL`). A statement runs on the shared pool, which sends it
 * as a named prepared statement (parsed and planned once per connection) and pipelines it with other requests'
 * statements on one connection: a third of the client CPU a query costs through `pg` (docs/performance.md). A
 * connection is reserved, and held until Kysely releases it, for a transaction and from the first statement that
 * is not a plain read or write of rows (`begin`, `set`, DDL, a function that keeps session state such as Kysely's
 * migration lock): so a `db.connection()` that begins a transaction or takes a lock keeps one session.
 */
export class BunPostgresDialect extends PostgresFamilyDialect {
  constructor(private readonly options: BunPostgresOptions) {
    super();
  }
  createDriver(): Driver {
    return new BunPostgresDriver(this.options);
  }
}

/** Bun's codes for a connection that could not be made or was lost. */
const BUN_CONNECTION_FAULT = /^ERR_POSTGRES_(CONNECTION_|SOCKET_|IDLE_TIMEOUT|LIFETIME_TIMEOUT|TLS_)/;

/** Whether `code` is Bun's for a connection that could not be made or was lost. */
export const bunConnectionFault = (code: string): boolean => BUN_CONNECTION_FAULT.test(code);
/** A statement the shared pool may run: one that reads or writes rows and leaves nothing in the session. */
const ROWS_ONLY = /^\s*(select|insert|update|delete|with|values)\b/i;
/** Functions that keep state in the session (Kysely's migration lock is `pg_advisory_lock`) or read it. */
const SESSION_FUNCTION = /\b(pg_(try_)?advisory_(xact_)?(un)?lock\w*|set_config|currval|lastval)\s*\(/i;
/** Whether `text` may run on any connection of the pool, apart from the statements before and after it. */
const runsAnywhere = (text: string): boolean => ROWS_ONLY.test(text) && !SESSION_FUNCTION.test(text);
/** Statements whose count of written rows Kysely reports. */
const WRITES = new Set(["INSERT", "UPDATE", "DELETE", "MERGE"]);

/**
 * A driver error in the shape every PostgreSQL driver shares: a server error's SQLSTATE in `code` (Bun keeps it in
 * `errno`); a storage fault as `StorageUnavailableError`.
 */
function classified(e: unknown): unknown {
  const error = e as { code?: unknown; errno?: unknown } | null;
  if (error?.code === "ERR_POSTGRES_SERVER_ERROR" && typeof error.errno === "string")
    Object.defineProperty(error, "code", { value: error.errno, configurable: true, writable: true });
  const code = typeof error?.code === "string" ? error.code : "";
  return classifyStorageError(e, (x: unknown) => postgresUnavailable(x) || bunConnectionFault(code));
}

class BunPostgresDriver extends PostgresFamilyDriver {
  readonly #client: SQL;

  constructor(private readonly options: BunPostgresOptions) {
    super();
    this.#client = new SQL(options.url, {
      max: options.max,
      idleTimeout: options.idleSeconds,
      connectionTimeout: options.acquireSeconds,
      prepare: true,
      // Connections are named "unirank" (as with pg before); a URL's own `application_name` wins.
      ...(new URL(options.url).searchParams.has("application_name")
        ? {}
        : { connection: { application_name: "unirank" } }),
    });
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return new BunPostgresConnection(this);
  }

  /** Runs one statement on the shared pool, or on the connection `held` for its caller. */
  async run(compiled: CompiledQuery, held: SQL | null): Promise<unknown[] & SQL.ResultMetadata> {
    const on = held ?? this.#client;
    return await on.unsafe(compiled.sql, compiled.parameters as unknown[]).catch((e: unknown) => {
      throw classified(e);
    });
  }

  /** One connection of the pool for this caller alone. */
  async reserve(): Promise<ReservedSQL> {
    const signal = AbortSignal.timeout(this.options.acquireSeconds * 1000);
    return await this.#client.reserve({ signal }).catch((e: unknown) => {
      const waited = `no database connection within ${this.options.acquireSeconds} s`;
      throw signal.aborted ? new StorageUnavailableError(new Error(waited)) : classified(e);
    });
  }

  override async beginTransaction(c: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    await (c as BunPostgresConnection).hold();
    await super.beginTransaction(c, settings);
  }
  async releaseConnection(c: DatabaseConnection): Promise<void> {
    (c as BunPostgresConnection).release();
  }
  async destroy(): Promise<void> {
    await this.#client.close();
  }
}

class BunPostgresConnection implements DatabaseConnection {
  #reserved: ReservedSQL | null = null;

  constructor(private readonly driver: BunPostgresDriver) {}

  /** Holds one connection for the statements that follow, until released. */
  async hold(): Promise<void> {
    this.#reserved ??= await this.driver.reserve();
  }

  release(): void {
    this.#reserved?.release();
    this.#reserved = null;
  }

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    if (this.#reserved === null && !runsAnywhere(compiled.sql)) await this.hold();
    const result = await this.driver.run(compiled, this.#reserved);
    const rows = result as unknown as R[];
    return WRITES.has(result.command ?? "")
      ? { rows, numAffectedRows: BigInt(result.affectedRows) }
      : { rows };
  }

  async *streamQuery<R>(compiled: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    yield await this.executeQuery<R>(compiled);
  }
}
