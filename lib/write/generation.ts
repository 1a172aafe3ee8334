import { sql } from "kysely";
import { prepared } from "../queries/prepared.ts";
import type { DB } from "../schema/database.ts";

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

/** Reads shared by the requests of one turn of the event loop, per database handle. */
let turnReads = new WeakMap<DB, Promise<number>>();
let turnEnding = false;
const nextTurn: (f: () => void) => void =
  typeof setImmediate === "function" ? (f) => setImmediate(f) : (f) => setTimeout(f, 0);

/**
 * Forgets the generations read in this turn. The writers call it; so must code that changes the data in this
 * process some other way (a test that empties tables), before reading again in the same turn.
 */
export function forgetGenerations(): void {
  turnReads = new WeakMap();
}

/**
 * The generation for a request: read once per turn of the event loop and database handle, and shared by every
 * caller in that turn. A read costs a SQLite read transaction (about 5 µs of locking, whatever the statement);
 * under load one turn answers many requests. Requests received in one turn arrived together, so each sees
 * every commit made before it arrived: a commit by another process is seen from the next turn on, and one by
 * this process at once (`bumpGeneration` forgets the shared reads, before and after it writes).
 */
export function currentGeneration(db: DB): Promise<number> {
  const shared = turnReads.get(db);
  if (shared !== undefined) return shared;
  const read = readGeneration(db);
  turnReads.set(db, read);
  // A failed read is not shared: the next caller tries again.
  read.catch(() => {
    if (turnReads.get(db) === read) turnReads.delete(db);
  });
  if (!turnEnding) {
    turnEnding = true;
    nextTurn(() => {
      turnEnding = false;
      forgetGenerations();
    });
  }
  return read;
}
