import { prepared } from "../db/prepared.ts";
import { notFound } from "../errors.ts";
import type { DB } from "../schema/database.ts";
import { toNumber, UNIVERSITY_COLUMNS, type University } from "./shapes.ts";

export interface LatestScanSummary {
  id: number;
  completed_at: string;
  overall_score: number | null;
}

export interface UniversityDetail extends University {
  /** Completed scans of this university. */
  scan_count: number;
  latest_scan: LatestScanSummary | null;
}

const universityQuery = prepared((db, arg: (i: number) => number) =>
  db.selectFrom("universities").select(UNIVERSITY_COLUMNS).where("id", "=", arg(0)),
);
/** The university, its completed scan count and its latest completed scan: two primary-key reads. */
const detailQuery = prepared((db, arg: (i: number) => number) =>
  db
    .selectFrom("universities as u")
    .leftJoin("latest_scans as l", "l.university_id", "u.id")
    .select(["u.id", "u.domain", "u.name", "u.country", "u.created_at"])
    .select([
      "l.scan_id",
      "l.completed_at as latest_completed_at",
      "l.overall_score as latest_overall_score",
      "l.scan_count",
    ])
    // `in (?)`, not `= ?`: on SQLite 3.54 (bun:sqlite) each run of this join with `= ?` cost a preparation
    // (docs/performance.md).
    .where("u.id", "in", [arg(0)]),
);

export async function findUniversity(db: DB, id: number): Promise<University> {
  const [row] = await universityQuery(db, [id]);
  if (!row) throw notFound(`University ${id} does not exist`);
  return row;
}

/** One university with its number of completed scans and its latest completed scan. */
export async function getUniversity(db: DB, id: number): Promise<UniversityDetail> {
  const [row] = await detailQuery(db, [id]);
  if (!row) throw notFound(`University ${id} does not exist`);
  const { scan_id, latest_completed_at, latest_overall_score, scan_count, ...university } = row;
  return {
    ...university,
    scan_count: toNumber(scan_count),
    latest_scan:
      scan_id == null || latest_completed_at == null
        ? null
        : {
            id: Number(scan_id),
            completed_at: latest_completed_at,
            overall_score: latest_overall_score == null ? null : Number(latest_overall_score),
          },
  };
}
