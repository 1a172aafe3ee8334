import type { DB } from "../schema/database.ts";
import { readGeneration } from "./generation.ts";

/** Most universities one write logs; after a larger one, readers build afresh (a patch would cost as much). */
export const MAX_LOGGED_UNIVERSITIES = 1_000;
/** Generations the log keeps; a value older than that is built afresh. */
export const LOGGED_GENERATIONS = 1_000;

/**
 * Logs, for the data generation the write `trx` has just bumped to, the universities whose completed scans it wrote,
 * so whose row of `latest_scans` and whose history it may have changed (`latest_scan_changes`, migration 012): `0`
 * alone when none. Call it after `bumpGeneration`,
 * inside the same transaction, for a write that changed no university; a write that names more than
 * `MAX_LOGGED_UNIVERSITIES` is not logged. Log rows older than `LOGGED_GENERATIONS` go.
 */
export async function logLatestChanges(trx: DB, universityIds: ReadonlySet<number>): Promise<void> {
  if (universityIds.size > MAX_LOGGED_UNIVERSITIES) return;
  const generation = await readGeneration(trx);
  const ids = universityIds.size > 0 ? [...universityIds] : [0];
  await trx
    .insertInto("latest_scan_changes")
    .values(ids.map((university_id) => ({ generation, university_id })))
    .execute();
  await trx
    .deleteFrom("latest_scan_changes")
    .where("generation", "<=", generation - LOGGED_GENERATIONS)
    .execute();
}

/**
 * The universities whose latest scan changed after data generation `from` up to `to`, or null when the log does
 * not hold every generation between (one was not logged, or is too old; then nothing can be said but
 * "anything"), or when they are more than `MAX_LOGGED_UNIVERSITIES` (a build costs no more than such a patch).
 */
export async function latestChangesBetween(db: DB, from: number, to: number): Promise<Set<number> | null> {
  if (to < from || to - from > LOGGED_GENERATIONS) return null;
  const changed = new Set<number>();
  if (to === from) return changed;
  const rows = await db
    .selectFrom("latest_scan_changes")
    .select(["generation", "university_id"])
    .where("generation", ">", from)
    .where("generation", "<=", to)
    .execute();
  const generations = new Set<number>();
  for (const r of rows) {
    generations.add(Number(r.generation));
    const id = Number(r.university_id);
    if (id !== 0) changed.add(id);
  }
  return generations.size === to - from && changed.size <= MAX_LOGGED_UNIVERSITIES ? changed : null;
}
