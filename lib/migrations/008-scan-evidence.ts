import type { Kysely } from "kysely";

/**
 * What a scan found, beside its scores: one JSON object (as text) per scan that has any, written by the ingest
 * writer in the transaction that writes the scan. Deleting a scan deletes its evidence.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("scan_evidence")
    .addColumn("scan_id", "integer", (c) => c.primaryKey().references("scans.id").onDelete("cascade"))
    .addColumn("evidence", "text", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("scan_evidence").execute();
}
