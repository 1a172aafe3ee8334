import { type Kysely, sql } from "kysely";
import { capabilitiesOf } from "../db/capabilities.ts";
import { RANKED_COLUMNS_001 as RANKED_SCORES } from "./001-core.ts";

/**
 * The previous completed scan on `latest_scans`: its id, `completed_at` and every ranked score as
 * `prev_<score>`, so regressions read one row per university instead of searching `scans` per request.
 * "Previous" is the completed scan just before the latest in the order of `latest_scans` (`completed_at`,
 * then scan id); null when the university has a single completed scan. Existing rows are backfilled.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const scoreType = capabilitiesOf(db).types.double;
  // One column per statement: SQLite's ALTER TABLE adds a single column at a time.
  await db.schema.alterTable("latest_scans").addColumn("previous_scan_id", "integer").execute();
  await db.schema.alterTable("latest_scans").addColumn("previous_completed_at", "text").execute();
  for (const name of RANKED_SCORES) {
    await db.schema.alterTable("latest_scans").addColumn(`prev_${name}`, scoreType).execute();
  }

  await sql`update latest_scans set previous_scan_id = (
      select s2.id from scans s2
      where s2.university_id = latest_scans.university_id and s2.status = 'completed'
        and (s2.completed_at < latest_scans.completed_at
          or (s2.completed_at = latest_scans.completed_at and s2.id < latest_scans.scan_id))
      order by s2.completed_at desc, s2.id desc
      limit 1)`.execute(db);
  const sets = [
    sql`previous_completed_at = p.completed_at`,
    ...RANKED_SCORES.map((c) => sql`${sql.ref(`prev_${c}`)} = ${sql.ref(`p.${c}`)}`),
  ];
  // UPDATE ... FROM: PostgreSQL and SQLite (3.33+) alike.
  await sql`update latest_scans set ${sql.join(sets)}
    from scans p where p.id = latest_scans.previous_scan_id`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const name of [
    ...RANKED_SCORES.map((c) => `prev_${c}`),
    "previous_completed_at",
    "previous_scan_id",
  ]) {
    await db.schema.alterTable("latest_scans").dropColumn(name).execute();
  }
}
