import type { Kysely } from "kysely";
import { createScoreIndexes, RANKED_COLUMNS_001 as RANKED_SCORES } from "./001-core.ts";

/**
 * Rankings are read from an in-memory index built once per data generation (queries/rank.ts), so the 26 score
 * indexes on `latest_scans` only sped up that build (15 → 50 ms per ranking without them) while every refresh
 * of `latest_scans` paid for them (a full refresh at 100,000 universities: 13 → 1.5 s). One index on `country`
 * keeps a country's ranking a short read.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const name of RANKED_SCORES) {
    await db.schema.dropIndex(`latest_${name}`).ifExists().execute();
    await db.schema.dropIndex(`latest_country_${name}`).ifExists().execute();
  }
  await db.schema.createIndex("latest_scans_country").on("latest_scans").column("country").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("latest_scans_country").execute();
  await createScoreIndexes(db);
}
