import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import type { Database } from "../../lib/index.ts";
import type { OpenedDatabase } from "./open.ts";

/** Opens PostgreSQL through `pg` with a connection pool. */
export function openPostgres(url: string, options: { poolSize?: number } = {}): OpenedDatabase {
  const pool = new pg.Pool({ connectionString: url, max: options.poolSize ?? 10 });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, kind: "postgres", close: () => db.destroy() };
}
