import { prepared } from "../db/prepared.ts";
import { notFound } from "../errors.ts";
import type { DB } from "../schema/database.ts";
import { SCORE_NAMES } from "../scores/catalogue.ts";
import { pickScores, type Scores } from "./shapes.ts";

export type LatestScores = { scan_id: number; completed_at: string } & Scores;

/** Latest completed scan of a university, or null when it has none. */
export async function latestScanOf(db: DB, universityId: number) {
  return db
    .selectFrom("latest_scans")
    .select(["scan_id", "completed_at"])
    .where("university_id", "=", universityId)
    .executeTakeFirst();
}

/** The university, its latest completed scan and that scan's scores: one statement, three primary-key reads. */
const latestScoresQuery = prepared((db, arg: (i: number) => number) =>
  db
    .selectFrom("universities as u")
    .leftJoin("latest_scans as l", "l.university_id", "u.id")
    .leftJoin("scans as s", "s.id", "l.scan_id")
    .select(["u.id as university_id", "l.scan_id", "l.completed_at"])
    .select(SCORE_NAMES.map((name) => `s.${name}` as const))
    .where("u.id", "=", arg(0)),
);

/** Every score of the latest completed scan; 404 for an unknown or never-scanned university. */
export async function universityScores(db: DB, id: number): Promise<LatestScores> {
  const [row] = await latestScoresQuery(db, [id]);
  if (!row) throw notFound(`University ${id} does not exist`);
  if (row.scan_id == null || row.completed_at == null)
    throw notFound(`University ${id} has no completed scan`);
  return {
    scan_id: Number(row.scan_id),
    completed_at: row.completed_at,
    ...pickScores(row as Record<string, unknown>),
  };
}

/** Every score of each latest completed scan, with its university's id; `variant` the limit or the id count. */
const latestColumns = (db: DB) =>
  db
    .selectFrom("latest_scans as l")
    .innerJoin("scans as s", "s.id", "l.scan_id")
    .select(["l.university_id", "l.scan_id", "l.completed_at"])
    .select(SCORE_NAMES.map((name) => `s.${name}` as const));
const latestAfter = prepared((db, arg, limit) =>
  latestColumns(db).where("l.university_id", ">", arg(0)).orderBy("l.university_id").limit(limit),
);
const latestByIds = prepared((db, arg, count) =>
  latestColumns(db).where(
    "l.university_id",
    "in",
    Array.from({ length: count }, (_, i) => arg(i)),
  ),
);

type LatestRow = { university_id: number | string; scan_id: number | string; completed_at: string };
const latestOfRow = (row: LatestRow): { id: number; scores: LatestScores } => ({
  id: Number(row.university_id),
  scores: {
    scan_id: Number(row.scan_id),
    completed_at: row.completed_at,
    ...pickScores(row as Record<string, unknown>),
  },
});

/**
 * `universityScores` of up to `limit` universities with a latest completed scan and ids above `afterId`,
 * ascending: for reading them all in runs.
 */
export async function latestScoresAfter(
  db: DB,
  afterId: number,
  limit: number,
): Promise<{ id: number; scores: LatestScores }[]> {
  return (await latestAfter(db, [afterId], limit)).map(latestOfRow);
}

/** `universityScores` of the given universities that have a latest completed scan, by university id. */
export async function latestScoresOf(db: DB, ids: readonly number[]): Promise<Map<number, LatestScores>> {
  const out = new Map<number, LatestScores>();
  if (ids.length === 0) return out;
  for (const row of await latestByIds(db, ids, ids.length)) {
    const { id, scores } = latestOfRow(row);
    out.set(id, scores);
  }
  return out;
}
