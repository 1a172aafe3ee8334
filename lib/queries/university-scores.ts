import { notFound } from "../errors.ts";
import type { DB } from "../schema/database.ts";
import { findUniversity } from "./get-university.ts";
import { type Scores, scoresOfScans } from "./shapes.ts";

export type LatestScores = { scan_id: number; completed_at: string } & Scores;

/** Latest completed scan of a university, or null when it has none. */
export async function latestScanOf(db: DB, universityId: number) {
  return db
    .selectFrom("latest_scans")
    .select(["scan_id", "completed_at"])
    .where("university_id", "=", universityId)
    .executeTakeFirst();
}

/** Every score of the latest completed scan; 404 for an unknown or never-scanned university. */
export async function universityScores(db: DB, id: number): Promise<LatestScores> {
  await findUniversity(db, id);
  const latest = await latestScanOf(db, id);
  if (!latest) throw notFound(`University ${id} has no completed scan`);
  const scores = (await scoresOfScans(db, [Number(latest.scan_id)])).get(Number(latest.scan_id));
  if (!scores) throw notFound(`University ${id} has no completed scan`);
  return { scan_id: Number(latest.scan_id), completed_at: latest.completed_at, ...scores };
}
