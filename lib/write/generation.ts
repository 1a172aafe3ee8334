import { sql } from "kysely";
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

export async function readGeneration(db: DB): Promise<number> {
  const row = await db
    .selectFrom("unirank_meta")
    .select("value")
    .where("key", "=", "generation")
    .executeTakeFirst();
  return row ? Number(row.value) : 0;
}
