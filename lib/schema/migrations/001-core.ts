import { type ColumnDefinitionBuilder, type Kysely, sql } from "kysely";
import { RANKED_SCORES, SCORE_NAMES } from "../../scores/catalogue.ts";
import { dialectKind } from "../dialect-kind.ts";

/** Universities, scans (one column per score), the materialised latest scan, and the meta table. */
export async function up(db: Kysely<unknown>): Promise<void> {
  const pg = dialectKind(db) === "postgres";
  const idType = pg ? "serial" : "integer";
  const scoreType = pg ? "double precision" : "real";
  // Byte-wise collation on PostgreSQL, so ordering matches SQLite's.
  const text = (c: ColumnDefinitionBuilder) => (pg ? c.modifyFront(sql`collate "C"`) : c);

  await db.schema
    .createTable("universities")
    .addColumn("id", idType, (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn("domain", "text", (c) => text(c).notNull().unique())
    .addColumn("name", "text", (c) => text(c).notNull())
    .addColumn("country", "text", (c) => text(c).notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("search_text", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("universities_name").on("universities").columns(["name", "id"]).execute();
  await db.schema
    .createIndex("universities_country_name")
    .on("universities")
    .columns(["country", "name", "id"])
    .execute();
  await db.schema
    .createIndex("universities_created_at")
    .on("universities")
    .columns(["created_at", "id"])
    .execute();

  let scans = db.schema
    .createTable("scans")
    .addColumn("id", idType, (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn("university_id", "integer", (c) =>
      c.notNull().references("universities.id").onDelete("cascade"),
    )
    .addColumn("source_id", "text", (c) => c.unique())
    .addColumn("status", "text", (c) =>
      c.notNull().check(sql`status in ('pending', 'running', 'completed', 'failed')`),
    )
    .addColumn("started_at", "text")
    .addColumn("completed_at", "text");
  for (const name of SCORE_NAMES) scans = scans.addColumn(name, scoreType);
  await scans.execute();
  await db.schema
    .createIndex("scans_university_completed")
    .on("scans")
    .columns(["university_id", "status", "completed_at", "id"])
    .execute();
  await db.schema
    .createIndex("scans_status_completed")
    .on("scans")
    .columns(["status", "completed_at"])
    .execute();

  let latest = db.schema
    .createTable("latest_scans")
    .addColumn("university_id", "integer", (c) =>
      c.primaryKey().references("universities.id").onDelete("cascade"),
    )
    .addColumn("scan_id", "integer", (c) => c.notNull())
    .addColumn("completed_at", "text", (c) => c.notNull())
    .addColumn("country", "text", (c) => c.notNull());
  for (const name of RANKED_SCORES) latest = latest.addColumn(name, scoreType);
  await latest.execute();
  await db.schema
    .createIndex("latest_scans_completed")
    .on("latest_scans")
    .columns(["completed_at"])
    .execute();
  await createScoreIndexes(db);

  await db.schema
    .createTable("unirank_meta")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("value", "text", (c) => c.notNull())
    .execute();
}

/** `(score desc, university_id)` and `(country, score desc, university_id)` per ranked score (dropped by 005). */
export async function createScoreIndexes(db: Kysely<unknown>): Promise<void> {
  for (const name of RANKED_SCORES) {
    await db.schema
      .createIndex(`latest_${name}`)
      .on("latest_scans")
      .expression(sql`${sql.ref(name)} desc, university_id`)
      .execute();
    await db.schema
      .createIndex(`latest_country_${name}`)
      .on("latest_scans")
      .expression(sql`country, ${sql.ref(name)} desc, university_id`)
      .execute();
  }
}
