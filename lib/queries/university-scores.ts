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
    // `in (?)`, not `= ?`: on SQLite 3.54 (bun:sqlite) each run of this join with `= ?` cost a preparation
    // (docs/performance.md).
    .where("u.id", "in", [arg(0)]),
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

/** Each university's reference and its latest completed scan's scores; `variant` the limit or the id count. */
const everyColumns = (db: DB) =>
  db
    .selectFrom("universities as u")
    .leftJoin("latest_scans as l", "l.university_id", "u.id")
    .leftJoin("scans as s", "s.id", "l.scan_id")
    .select(["u.id", "u.domain", "u.name", "l.scan_id", "l.completed_at", "l.profile", "s.id as scored_id"])
    .select(SCORE_NAMES.map((name) => `s.${name}` as const));
const everyAfter = prepared((db, arg, limit) =>
  everyColumns(db).where("u.id", ">", arg(0)).orderBy("u.id").limit(limit),
);
const everyByIds = prepared((db, arg, count) =>
  everyColumns(db).where(
    "u.id",
    "in",
    Array.from({ length: count }, (_, i) => arg(i)),
  ),
);

/** A university, its latest completed scan and that scan's scores. */
export interface UniversityLatestScores {
  id: number;
  reference: { id: number; domain: string; name: string };
  /** null without a latest completed scan. */
  scan: { id: number; completed_at: string; profile: string } | null;
  /** null without a latest completed scan, or when that scan's row is missing. */
  scores: Scores | null;
}

type EveryRow = {
  id: number | string;
  domain: string;
  name: string;
  scan_id: number | string | null;
  completed_at: string | null;
  profile: string | null;
  scored_id: number | string | null;
};
const ofRow = (row: EveryRow): UniversityLatestScores => {
  const id = Number(row.id);
  const scan =
    row.scan_id == null || row.completed_at == null
      ? null
      : { id: Number(row.scan_id), completed_at: row.completed_at, profile: row.profile ?? "" };
  return {
    id,
    reference: { id, domain: row.domain, name: row.name },
    scan,
    scores:
      scan === null || row.scored_id == null ? null : pickScores(row as unknown as Record<string, unknown>),
  };
};

/** Up to `limit` universities with ids above `afterId`, ascending, with their latest scores: to read all in runs. */
export async function latestScoresAfter(
  db: DB,
  afterId: number,
  limit: number,
): Promise<UniversityLatestScores[]> {
  return (await everyAfter(db, [afterId], limit)).map(ofRow);
}

/** The given universities that exist, with their latest scores, by id. */
export async function latestScoresOf(
  db: DB,
  ids: readonly number[],
): Promise<Map<number, UniversityLatestScores>> {
  const out = new Map<number, UniversityLatestScores>();
  if (ids.length === 0) return out;
  for (const row of await everyByIds(db, ids, ids.length)) {
    const entry = ofRow(row);
    out.set(entry.id, entry);
  }
  return out;
}
