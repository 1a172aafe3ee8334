import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import { classifyStorageErrors, type Database, postgresUnavailable } from "../../lib/index.ts";
import { NamedStatementClient } from "./named-statements.ts";
import type { OpenedDatabase } from "./opened-database.ts";

/** Pool settings; each may also be given in the URL as `?pool=N&pool_timeout=S&pool_idle=S`. */
export interface PostgresOptions {
  /** Most connections this process opens (default 10). */
  poolSize?: number;
  /** Seconds to wait for a connection (pool full, or server slow to accept) before failing with 503 (default 10). */
  poolTimeoutSeconds?: number;
  /** Seconds an unused connection stays open (default 30). */
  idleSeconds?: number;
}

const OUR_PARAMS = {
  pool: "poolSize",
  pool_timeout: "poolTimeoutSeconds",
  pool_idle: "idleSeconds",
} as const;

/** Splits our pool parameters off a `postgres://` URL; the rest of the URL goes to the driver unchanged. */
export function parsePostgresUrl(url: string): { connectionString: string; options: PostgresOptions } {
  const u = new URL(url);
  const options: PostgresOptions = {};
  for (const [param, key] of Object.entries(OUR_PARAMS)) {
    const value = u.searchParams.get(param);
    if (value === null) continue;
    if (!/^[0-9]{1,6}$/.test(value) || (param === "pool" && Number(value) < 1)) {
      throw new Error(`${param} in the database URL must be a ${param === "pool" ? "positive " : ""}integer`);
    }
    options[key] = Number(value);
    u.searchParams.delete(param);
  }
  return { connectionString: u.toString(), options };
}

/** PostgreSQL's storage faults, and pg's own words for a connection that ended or never came (no code of its own). */
function pgUnavailable(e: unknown): boolean {
  return (
    postgresUnavailable(e) ||
    (e instanceof Error && /^(Connection terminated|timeout exceeded when trying to connect)/.test(e.message))
  );
}

/**
 * Opens PostgreSQL through `pg` with a connection pool. Counts come back as strings (int8), as with any `pg`
 * setup an embedder has: the core converts, so no global type parser is installed here. Repeated statements are
 * prepared once per connection (`NamedStatementClient`).
 */
export function openPostgres(url: string, options: PostgresOptions = {}): OpenedDatabase {
  const parsed = parsePostgresUrl(url);
  const settings = { ...parsed.options, ...options };
  const pool = new pg.Pool({
    connectionString: parsed.connectionString,
    max: settings.poolSize ?? 10,
    connectionTimeoutMillis: (settings.poolTimeoutSeconds ?? 10) * 1000,
    idleTimeoutMillis: (settings.idleSeconds ?? 30) * 1000,
    application_name: "unirank",
    Client: NamedStatementClient,
  });
  // An idle connection dropped by the server (restart, failover) must not crash the process; the pool
  // replaces it and the next query reports the outage as 503.
  pool.on("error", () => {});
  const db = new Kysely<Database>({
    dialect: classifyStorageErrors(new PostgresDialect({ pool }), pgUnavailable),
  });
  return { db, kind: "postgres", close: () => db.destroy() };
}
