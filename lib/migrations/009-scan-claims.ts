import { type Kysely, sql } from "kysely";
import { capabilitiesOf } from "../db/capabilities.ts";

/**
 * The scheduler's tables. `scan_claims`: one row per university, its lease (who scans it, until when), the attempt
 * in progress and the outcome of the last one, and when its next availability probe is due. `availability_probes`:
 * one row per HEAD of a home page, answered or not, read back as the uptime of the scan period.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { serialIds, types } = capabilitiesOf(db);
  await db.schema
    .createTable("scan_claims")
    .addColumn("university_id", "integer", (c) =>
      c.primaryKey().references("universities.id").onDelete("cascade"),
    )
    .addColumn("owner", "text")
    .addColumn("lease_until", "text")
    .addColumn("attempt_id", "text")
    .addColumn("started_at", "text")
    .addColumn("last_attempt_at", "text")
    .addColumn("last_status", "text")
    .addColumn("last_error", "text")
    .addColumn("next_probe_at", "text")
    .execute();
  await db.schema
    .createIndex("scan_claims_lease")
    .on("scan_claims")
    .columns(["owner", "lease_until"])
    .execute();
  await db.schema.createIndex("scan_claims_probe").on("scan_claims").columns(["next_probe_at"]).execute();
  await db.schema
    .createIndex("scan_claims_last_attempt")
    .on("scan_claims")
    .columns(["last_status", "last_attempt_at"])
    .execute();
  await db.schema
    .createTable("availability_probes")
    .addColumn("id", types.id, (c) => (serialIds ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn("university_id", "integer", (c) =>
      c.notNull().references("universities.id").onDelete("cascade"),
    )
    .addColumn("probed_at", "text", (c) => c.notNull())
    .addColumn("answered", "integer", (c) => c.notNull().check(sql`answered in (0, 1)`))
    .addColumn("status_code", "integer")
    .addColumn("error", "text")
    .execute();
  await db.schema
    .createIndex("availability_probes_university")
    .on("availability_probes")
    .columns(["university_id", "probed_at"])
    .execute();
  await db.schema
    .createIndex("availability_probes_time")
    .on("availability_probes")
    .columns(["probed_at"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("availability_probes").execute();
  await db.schema.dropTable("scan_claims").execute();
}
