import { sql } from "kysely";
import type { DB } from "../schema/database.ts";
import { prepared } from "./prepared.ts";
import { sharedRead } from "./shared-read.ts";

/**
 * The data generation: a counter bumped by every write transaction. Readers use it to know that cached
 * answers are still current (ETags, memoised totals) without re-running queries.
 *
 * The universities generation: the data generation at the last change of the `universities` table (the
 * `universities_generation` key; the data generation itself when the key is missing, as after an older
 * writer). What is derived from that table alone (the list's order, the search index) is kept per universities
 * generation, so a finished scan does not rebuild it. The writers and the data triggers set it.
 */
export async function bumpGeneration(
  db: DB,
  changed: { universities: boolean } = { universities: true },
): Promise<void> {
  forgetGenerations();
  await sql`insert into unirank_meta (key, value) values ('generation', '1')
    on conflict (key) do update set value = cast(cast(unirank_meta.value as integer) + 1 as text)`.execute(
    db,
  );
  if (changed.universities) {
    await sql`insert into unirank_meta (key, value)
      select 'universities_generation', value from unirank_meta where key = 'generation'
      on conflict (key) do update set value = excluded.value`.execute(db);
  }
  forgetGenerations();
}

/** The data and universities generations (see `bumpGeneration`). */
export interface Generations {
  data: number;
  universities: number;
}

const generationsQuery = prepared((db) =>
  db
    .selectFrom("unirank_meta")
    .select(["key", "value"])
    .where("key", "in", ["generation", "universities_generation"]),
);

/** Both generations as committed now: one read of the database. */
export async function readGenerations(db: DB): Promise<Generations> {
  let data = 0;
  let universities: number | undefined;
  for (const row of await generationsQuery(db, [])) {
    if (row.key === "generation") data = Number(row.value);
    else universities = Number(row.value);
  }
  return { data, universities: universities ?? data };
}

/** The data generation as committed now: one read of the database. */
export async function readGeneration(db: DB): Promise<number> {
  return (await readGenerations(db)).data;
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

const sharedGenerations = sharedRead(readGenerations, () => generationWindowMs);

/**
 * Forgets the shared generation reads. The writers call it; so must code that changes the data in this process
 * some other way (a test that empties tables), before reading again.
 */
export function forgetGenerations(): void {
  sharedGenerations.forget();
}

/**
 * The generations for a request: one read of the database per handle shared by every request of the following
 * window (`sharedRead`, 1 ms by default, `setGenerationWindow`). A commit by another process is seen at most one
 * window later; one by this process at once (`bumpGeneration` forgets the shared reads before and after it
 * writes, the writers after they commit).
 */
export function currentGenerations(db: DB): Promise<Generations> {
  return sharedGenerations(db);
}
