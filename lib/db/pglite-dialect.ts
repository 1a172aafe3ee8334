import type { CompiledQuery, DatabaseConnection, Driver, QueryResult } from "kysely";
import { PostgresFamilyDialect, PostgresFamilyDriver } from "./postgres-family.ts";
import { classifyStorageError, postgresUnavailable } from "./storage-errors.ts";

/** The part of a PGlite instance (`@electric-sql/pglite`) the dialect uses; no import of PGlite itself. */
export interface PGliteLike {
  query<T>(sql: string, params?: unknown[]): Promise<{ rows: T[]; affectedRows?: number }>;
  close(): Promise<void>;
}

/**
 * Kysely dialect for PGlite (PostgreSQL in-process). PGlite is a single session, so the one connection is
 * handed out exclusively (a mutex): a transaction never sees another caller's statements.
 * Usage: `new Kysely<Database>({ dialect: new PGliteDialect(await PGlite.create()) })`.
 */
export class PGliteDialect extends PostgresFamilyDialect {
  constructor(private readonly client: PGliteLike) {
    super();
  }
  createDriver(): Driver {
    return new PGliteDriver(this.client);
  }
}

class PGliteDriver extends PostgresFamilyDriver {
  readonly #connection: PGliteConnection;
  #lock: Promise<void> = Promise.resolve();

  constructor(private readonly client: PGliteLike) {
    super();
    this.#connection = new PGliteConnection(client);
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
  async releaseConnection(c: DatabaseConnection): Promise<void> {
    (c as PGliteConnection).release?.();
  }
  async destroy(): Promise<void> {
    await this.client.close();
  }
}

class PGliteConnection implements DatabaseConnection {
  release?: () => void;
  constructor(private readonly client: PGliteLike) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.client
      .query<R>(compiled.sql, [...compiled.parameters])
      .catch((e: unknown) => Promise.reject(classifyStorageError(e, postgresUnavailable)));
    return result.affectedRows === undefined
      ? { rows: result.rows }
      : { rows: result.rows, numAffectedRows: BigInt(result.affectedRows) };
  }

  async *streamQuery<R>(compiled: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    yield await this.executeQuery<R>(compiled);
  }
}
