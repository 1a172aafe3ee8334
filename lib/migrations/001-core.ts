import { type ColumnDefinitionBuilder, type Kysely, sql } from "kysely";
import { capabilitiesOf } from "../db/capabilities.ts";

/**
 * The score columns as they were when this migration was written, frozen here: a score added to the catalogue
 * later needs a migration of its own, and never changes what this one creates.
 */
export const SCORE_COLUMNS_001 = [
  "overall_score",
  "webo_composite_score",
  "tech_composite_score",
  "research_composite_score",
  "presence_composite_score",
  "webo_size_score",
  "webo_visibility_score",
  "webo_openness_score",
  "webo_excellence_score",
  "research_publications_score",
  "research_citations_score",
  "research_repository_score",
  "research_orcid_score",
  "research_profiles_score",
  "presence_social_score",
  "presence_wikipedia_score",
  "presence_news_score",
  "presence_video_score",
  "i18n_score",
  "i18n_hreflang_score",
  "tech_ssl_score",
  "tech_tls_version_score",
  "tech_hsts_score",
  "tech_security_headers_score",
  "tech_speed_desktop_score",
  "tech_speed_mobile_score",
  "tech_core_web_vitals_score",
  "tech_http2_score",
  "tech_mobile_friendly_score",
  "tech_accessibility_score",
  "tech_seo_score",
  "tech_sitemap_score",
  "tech_uptime_score",
  "email_security_score",
  "email_spf_score",
  "email_dmarc_score",
  "email_dnssec_score",
  "green_hosting_score",
  "green_page_weight_score",
] as const;

/** The scores `latest_scans` copied for rankings (migration 004 adds a `prev_` column for each). */
export const RANKED_COLUMNS_001 = [
  "overall_score",
  "webo_composite_score",
  "tech_composite_score",
  "research_composite_score",
  "presence_composite_score",
  "tech_security_headers_score",
  "tech_accessibility_score",
  "tech_ssl_score",
  "email_security_score",
  "green_hosting_score",
  "i18n_score",
  "tech_speed_mobile_score",
  "tech_seo_score",
] as const;

/** Universities, scans (one column per score), the materialised latest scan, and the meta table. */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { serialIds, byteCollation, types } = capabilitiesOf(db);
  const idType = types.id;
  const scoreType = types.double;
  // Byte-wise collation on PostgreSQL, so ordering matches SQLite's.
  const text = (c: ColumnDefinitionBuilder) => (byteCollation ? c.modifyFront(sql`collate "C"`) : c);

  await db.schema
    .createTable("universities")
    .addColumn("id", idType, (c) => (serialIds ? c.primaryKey() : c.primaryKey().autoIncrement()))
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
    .addColumn("id", idType, (c) => (serialIds ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn("university_id", "integer", (c) =>
      c.notNull().references("universities.id").onDelete("cascade"),
    )
    .addColumn("source_id", "text", (c) => c.unique())
    .addColumn("status", "text", (c) =>
      c.notNull().check(sql`status in ('pending', 'running', 'completed', 'failed')`),
    )
    .addColumn("started_at", "text")
    .addColumn("completed_at", "text");
  for (const name of SCORE_COLUMNS_001) scans = scans.addColumn(name, scoreType);
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
  for (const name of RANKED_COLUMNS_001) latest = latest.addColumn(name, scoreType);
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
  for (const name of RANKED_COLUMNS_001) {
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
