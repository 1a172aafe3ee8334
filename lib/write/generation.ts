import { sql } from "kysely";
import { prepared } from "../queries/prepared.ts";
import type { DB } from "../schema/database.ts";

/**
 * The data generation: a counter bumped by every write transaction. Readers use it to know that cached
 * answers are still current (ETags, memoised totals) without re-running queries.
 */
export async function bumpGeneration(db: DB): Promise<void> {
  await sql`insert into unirank_meta (key, value) values ('generation', '1')
    on conflict (key) do update set value = cast(cast(unirank_meta.value as integer) + 1 as text)`.execute(
    db,
  );
}

const generationQuery = prepared((db) =>
  db.selectFrom("unirank_meta").select("value").where("key", "=", "generation"),
);

/** Read on every cacheable request, so compiled once per database handle. */
export async function readGeneration(db: DB): Promise<number> {
  const [row] = await generationQuery(db, []);
  return row ? Number(row.value) : 0;
}
