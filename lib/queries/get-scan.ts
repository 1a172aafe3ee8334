import { prepared } from "../db/prepared.ts";
import { notFound } from "../errors.ts";
import type { DB, ScanStatus } from "../schema/database.ts";
import { SCORE_NAMES } from "../scores/catalogue.ts";
import type { UniversityRef } from "./response-schemas.ts";
import { pickScores, type Scores } from "./shapes.ts";

export type { UniversityRef } from "./response-schemas.ts";

export interface ScanDetail {
  id: number;
  university: UniversityRef;
  status: ScanStatus;
  started_at: string | null;
  completed_at: string | null;
  /** The measurement parts that made its scores, or `unknown` (docs/scores.md). */
  profile: string;
  /** The version of unirank's rubrics that scored it; null when they did not (docs/scanner.md). */
  rubric_version: number | null;
  /** Every score, in catalogue order; null unless the scan is completed. */
  scores: Scores | null;
  /** Observations and per-check points (`unirank scan`), or what an imported record carried; null without. */
  evidence: Record<string, unknown> | null;
}

/** Scans with their university and evidence, by id; one compiled statement per number of ids. */
const scansQuery = prepared((db, arg: (i: number) => number, n) =>
  db
    .selectFrom("scans as s")
    .innerJoin("universities as u", "u.id", "s.university_id")
    .leftJoin("scan_evidence as e", "e.scan_id", "s.id")
    .select([
      "s.id",
      "s.status",
      "s.started_at",
      "s.completed_at",
      "s.profile",
      "s.rubric_version",
      "u.id as university_id",
      "u.domain",
      "u.name",
      "u.country",
      "e.evidence",
      ...SCORE_NAMES.map((n) => `s.${n}` as const),
    ])
    .where(
      "s.id",
      "in",
      Array.from({ length: n }, (_, i) => arg(i)),
    ),
);

/** The scans of `ids` (one statement), keyed by id; an unknown id is absent. */
export async function scansById(db: DB, ids: readonly number[]): Promise<Map<number, ScanDetail>> {
  const rows = ids.length === 0 ? [] : await scansQuery(db, ids, ids.length);
  const out = new Map<number, ScanDetail>();
  for (const row of rows) {
    out.set(Number(row.id), {
      id: Number(row.id),
      university: {
        id: Number(row.university_id),
        domain: row.domain,
        name: row.name,
        country: row.country,
      },
      status: row.status,
      started_at: row.started_at ?? null,
      completed_at: row.completed_at ?? null,
      profile: row.profile,
      rubric_version: row.rubric_version == null ? null : Number(row.rubric_version),
      scores: row.status === "completed" ? pickScores(row as Record<string, unknown>) : null,
      evidence: row.evidence == null ? null : (JSON.parse(row.evidence) as Record<string, unknown>),
    });
  }
  return out;
}

/** One scan of any status with its university; 404 for an unknown id. */
export async function getScan(db: DB, id: number): Promise<ScanDetail> {
  const scan = (await scansById(db, [id])).get(id);
  if (!scan) throw notFound(`Scan ${id} does not exist`);
  return scan;
}
