import { type Kysely, type Migration, Migrator } from "kysely";
import { capabilitiesOf } from "../db/capabilities.ts";

/**
 * The access state written on the request path: the rate limiter's per-client rows and admitted-request log, the
 * signature replay store and the audit log. Part of migration `002-access` in the data database; a server on a
 * SQLite file keeps them in a file of their own beside it instead (`migrateAccessState`), so that no request waits
 * on the lock of a process writing the data (an import).
 */
export async function createAccessStateTables(db: Kysely<unknown>): Promise<void> {
  const { serialIds, types } = capabilitiesOf(db);
  const idType = types.id;
  const msType = types.bigint;
  const realType = types.double;

  // One row per rate-limited client: the row every admission decision of that client locks first.
  await db.schema
    .createTable("rate_limit_clients")
    .addColumn("client", "text", (c) => c.primaryKey())
    .addColumn("touched_at", msType, (c) => c.notNull())
    .execute();
  // Every admitted request still inside the window (a sliding log: exact, no edge double allowance).
  await db.schema
    .createTable("rate_limit_hits")
    .addColumn("client", "text", (c) => c.notNull())
    .addColumn("at", msType, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("rate_limit_hits_client_at")
    .on("rate_limit_hits")
    .columns(["client", "at"])
    .execute();
  await db.schema.createIndex("rate_limit_hits_at").on("rate_limit_hits").columns(["at"]).execute();

  await db.schema
    .createTable("signature_replays")
    .addColumn("key_id", "integer", (c) => c.notNull())
    .addColumn("signature", "text", (c) => c.notNull())
    .addColumn("expires_at", msType, (c) => c.notNull())
    .addPrimaryKeyConstraint("signature_replays_pk", ["key_id", "signature"])
    .execute();
  await db.schema
    .createIndex("signature_replays_expires")
    .on("signature_replays")
    .columns(["expires_at"])
    .execute();

  await db.schema
    .createTable("audit_log")
    .addColumn("id", idType, (c) => (serialIds ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn("at", msType, (c) => c.notNull())
    .addColumn("request_id", "text", (c) => c.notNull())
    .addColumn("key_id", "integer")
    .addColumn("client_ip", "text", (c) => c.notNull())
    .addColumn("method", "text", (c) => c.notNull())
    .addColumn("path", "text", (c) => c.notNull())
    .addColumn("status", "integer", (c) => c.notNull())
    .addColumn("duration_ms", realType, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("audit_log_at").on("audit_log").columns(["at", "id"]).execute();
}

const ACCESS_STATE_MIGRATIONS: Record<string, Migration> = {
  "001-access-state": { up: createAccessStateTables },
};

/** Brings a database of access state alone (the SQLite file beside the data file) to the current schema. */
// biome-ignore lint/suspicious/noExplicitAny: any schema may be migrated
export async function migrateAccessState(db: Kysely<any>): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => ACCESS_STATE_MIGRATIONS },
    migrationTableName: "unirank_access_migrations",
    migrationLockTableName: "unirank_access_migrations_lock",
  });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error;
}
