import { sql } from "kysely";
import type { DB } from "../schema/database.ts";
import { capabilitiesOf } from "./capabilities.ts";

/**
 * Runs `read` on one connection inside a read-only transaction, so everything it reads is one consistent snapshot
 * of the database, whatever is written meanwhile: PostgreSQL's `repeatable read`, SQLite's deferred transaction
 * (in WAL mode a reader keeps the snapshot of its first read and never blocks a writer). Writers are not held up.
 */
export async function inReadSnapshot<T>(db: DB, read: (snapshot: DB) => Promise<T>): Promise<T> {
  const begin =
    capabilitiesOf(db).family === "postgres"
      ? sql`begin isolation level repeatable read read only`
      : sql`begin deferred`;
  return db.connection().execute(async (conn) => {
    await begin.execute(conn);
    let result: T;
    try {
      result = await read(conn);
    } catch (e) {
      await sql`rollback`.execute(conn).catch(() => {});
      throw e;
    }
    await sql`commit`.execute(conn);
    return result;
  });
}
