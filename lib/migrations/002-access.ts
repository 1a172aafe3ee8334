import type { Kysely } from "kysely";
import { capabilitiesOf } from "../db/capabilities.ts";
import { createAccessStateTables } from "./access-state.ts";

/**
 * Access control: API keys (hash only), the rate limiter's per-client rows and admitted-request log,
 * the signature replay store and the audit log. Times in milliseconds since the epoch (`bigint` on PostgreSQL).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { serialIds, types } = capabilitiesOf(db);
  const idType = types.id;

  await db.schema
    .createTable("api_keys")
    .addColumn("id", idType, (c) => (serialIds ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("prefix", "text", (c) => c.notNull())
    .addColumn("key_hash", "text", (c) => c.notNull().unique())
    .addColumn("rate_limit", "integer", (c) => c.notNull())
    .addColumn("require_signature", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("signing_secret", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("revoked_at", "text")
    .execute();

  await createAccessStateTables(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ["audit_log", "signature_replays", "rate_limit_hits", "rate_limit_clients", "api_keys"]) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
