import { type Kysely, sql } from "kysely";

/**
 * The number of completed scans on `latest_scans`, kept by the same refresh as the latest scan, so one university's
 * details are two primary-key reads instead of a count over its scans (measured: docs/performance.md).
 * Existing rows are backfilled.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("latest_scans")
    .addColumn("scan_count", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`update latest_scans set scan_count = (
      select count(*) from scans s
      where s.university_id = latest_scans.university_id and s.status = 'completed')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("latest_scans").dropColumn("scan_count").execute();
}
