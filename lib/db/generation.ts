import { sql } from "kysely";
import type { DB } from "../schema/database.ts";
import { prepared } from "./prepared.ts";
import { sharedRead } from "./shared-read.ts";

/**
 * The data generation: a counter bumped by every write transaction. Readers use it to know that cached
 * answers are still current (ETags, memoised totals) without re-running queries.
 */
export async function bumpGeneration(db: DB): Promise<void> {
  forgetGenerations();
  await sql`insert into unirank_meta (key, value) values ('generation', '1')
    on conflict (key) do update set value = cast(cast(unirank_meta.value as integer) + 1 as text)`.execute(
    db,
  );
  forgetGenerations();
}

const generationQuery = prepared((db) =>
  db.selectFrom("unirank_meta").select("value").where("key", "=", "generation"),
);

/** The generation as committed now: one read of the database. */
export async function readGeneration(db: DB): Promise<number> {
  const [row] = await generationQuery(db, []);
  return row ? Number(row.value) : 0;
}

/** How long a generation read is shared by the requests that follow it (ms). */
let generationWindowMs = 1;

/**
 * Sets how long a generation read is shared (default 1 ms; 0 reads on every request): the most time a write by
 * another process, or an operator's raw SQL (the data triggers bump the generation), goes unseen by this one.
 */
export function setGenerationWindow(ms: number): void {
  if (!(ms >= 0)) throw new Error("the generation window must be ≥ 0 ms");
  generationWindowMs = ms;
  forgetGenerations();
}

const sharedGeneration = sharedRead(readGeneration, () => generationWindowMs);

/**
 * Forgets the shared generation reads. The writers call it; so must code that changes the data in this process
 * some other way (a test that empties tables), before reading again.
 */
export function forgetGenerations(): void {
  sharedGeneration.forget();
}

/**
 * The generation for a request: one read of the database per handle shared by every request of the following
 * window (`sharedRead`, 1 ms by default, `setGenerationWindow`). A commit by another process is seen at most one
 * window later; one by this process at
 * once (`bumpGeneration` forgets the shared reads before and after it writes, the writers after they commit).
 */
export function currentGeneration(db: DB): Promise<number> {
  return sharedGeneration(db);
}
