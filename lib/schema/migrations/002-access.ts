import type { Kysely } from "kysely";
import { dialectKind } from "../dialect-kind.ts";

/**
 * Access control: API keys (hash only), the rate limiter's per-client rows and admitted-request log,
 * the signature replay store and the audit log. Times in milliseconds since the epoch (`bigint` on PostgreSQL).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const pg = dialectKind(db) === "postgres";
  const idType = pg ? "serial" : "integer";
  const msType = pg ? "bigint" : "integer";
  const realType = pg ? "double precision" : "real";

  await db.schema
    .createTable("api_keys")
    .addColumn("id", idType, (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("prefix", "text", (c) => c.notNull())
    .addColumn("key_hash", "text", (c) => c.notNull().unique())
    .addColumn("rate_limit", "integer", (c) => c.notNull())
    .addColumn("require_signature", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("signing_secret", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("revoked_at", "text")
    .execute();

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
    .addColumn("id", idType, (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
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

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ["audit_log", "signature_replays", "rate_limit_hits", "rate_limit_clients", "api_keys"]) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
