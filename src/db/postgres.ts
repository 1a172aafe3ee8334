import { Kysely } from "kysely";
import type { Database } from "../../lib/index.ts";
import { BunPostgresDialect } from "./bun-postgres-dialect.ts";
import type { OpenedDatabase } from "./opened-database.ts";

/** Pool settings; each may also be given in the URL as `?pool=N&pool_timeout=S&pool_idle=S`. */
export interface PostgresOptions {
  /** Most connections this process opens (default 10). */
  poolSize?: number;
  /** Seconds to wait for a new connection, or for one to hold for a transaction, before failing with 503 (default 10). */
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

/**
 * Opens PostgreSQL through Bun's own client (`BunPostgresDialect`): a pool whose statements are prepared once per
 * connection. Counts come back as strings (int8), as with `pg` or `postgres`: the core converts.
 */
export function openPostgres(url: string, options: PostgresOptions = {}): OpenedDatabase {
  const parsed = parsePostgresUrl(url);
  const settings = { ...parsed.options, ...options };
  const db = new Kysely<Database>({
    dialect: new BunPostgresDialect({
      url: parsed.connectionString,
      max: settings.poolSize ?? 10,
      acquireSeconds: settings.poolTimeoutSeconds ?? 10,
      idleSeconds: settings.idleSeconds ?? 30,
    }),
  });
  return { db, kind: "postgres", close: () => db.destroy() };
}
