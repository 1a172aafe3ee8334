import type { Kysely } from "kysely";

/**
 * `latest_scan_changes`: for each data generation a writer of scans made, the universities whose row of
 * `latest_scans` it may have changed (`0` alone when none), so a ranking kept in memory is brought up to date
 * with those rows instead of read again whole (`logLatestChanges`). A generation the log lacks (raw SQL through the
 * data triggers, a write of universities, a large import) makes its readers build afresh.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("latest_scan_changes")
    .addColumn("generation", "integer", (c) => c.notNull())
    .addColumn("university_id", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("latest_scan_changes_pk", ["generation", "university_id"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("latest_scan_changes").execute();
}
