import { notFound } from "../errors.ts";
import type { DB } from "../schema/database.ts";
import { prepared } from "./prepared.ts";
import { countAll, toNumber, UNIVERSITY_COLUMNS, type University } from "./shapes.ts";

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
const scanCountQuery = prepared((db, arg: (i: number) => number) =>
  db
    .selectFrom("scans")
    .select(countAll.as("n"))
    .where("university_id", "=", arg(0))
    .where("status", "=", "completed"),
);
const latestScanQuery = prepared((db, arg: (i: number) => number) =>
  db
    .selectFrom("latest_scans")
    .select(["scan_id", "completed_at", "overall_score"])
    .where("university_id", "=", arg(0)),
);

export async function findUniversity(db: DB, id: number): Promise<University> {
  const [row] = await universityQuery(db, [id]);
  if (!row) throw notFound(`University ${id} does not exist`);
  return row;
}

/** One university with its number of completed scans and its latest completed scan. */
export async function getUniversity(db: DB, id: number): Promise<UniversityDetail> {
  const university = await findUniversity(db, id);
  const [[count], [latest]] = await Promise.all([scanCountQuery(db, [id]), latestScanQuery(db, [id])]);
  return {
    ...university,
    scan_count: toNumber(count?.n),
    latest_scan: latest
      ? {
          id: Number(latest.scan_id),
          completed_at: latest.completed_at,
          overall_score: latest.overall_score == null ? null : Number(latest.overall_score),
        }
      : null,
  };
}
