import { prepared } from "../db/prepared.ts";
import { notFound } from "../errors.ts";
import type { DB, ScanStatus } from "../schema/database.ts";
import { SCORE_NAMES } from "../scores/catalogue.ts";
import { universitiesByIds } from "./list-universities.ts";
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

/**
 * Where the university references of scans come from: the universities of `ids`, by id (an id it does not hold is
 * read from the database). The database itself by default; the HTTP layer gives the list's rows it keeps in memory.
 */
export type UniversityRefs = (ids: readonly number[]) => Promise<Map<number, UniversityRef>>;

/** The universities of `ids` as references, read from the database in one statement. */
async function storedRefs(db: DB, ids: readonly number[]): Promise<Map<number, UniversityRef>> {
  const out = new Map<number, UniversityRef>();
  for (const u of await universitiesByIds(db, ids)) {
    out.set(Number(u.id), { id: Number(u.id), domain: u.domain, name: u.name, country: u.country });
  }
  return out;
}

/** Scans with their evidence and university id, by id; one compiled statement per number of ids. */
const scansQuery = prepared((db, arg: (i: number) => number, n) =>
  db
    .selectFrom("scans as s")
    .leftJoin("scan_evidence as e", "e.scan_id", "s.id")
    .select([
      "s.id",
      "s.university_id",
      "s.status",
      "s.started_at",
      "s.completed_at",
      "s.profile",
      "s.rubric_version",
      "e.evidence",
      ...SCORE_NAMES.map((n) => `s.${n}` as const),
    ])
    .where(
      "s.id",
      "in",
      Array.from({ length: n }, (_, i) => arg(i)),
    ),
);

/** A scan as its statement reads it: its university's id, its evidence as stored text, its scores as columns. */
export type ScanRow = Awaited<ReturnType<typeof scansQuery>>[number];

/** The scans of `ids` as stored, in one statement; an unknown id is absent. */
export const scanRows = (db: DB, ids: readonly number[]): Promise<ScanRow[]> =>
  ids.length === 0 ? Promise.resolve([]) : scansQuery(db, ids, ids.length);

/** A row of `scanRows` with its university, as the answers give it. */
const scanDetail = (row: ScanRow, university: UniversityRef): ScanDetail => ({
  id: Number(row.id),
  university,
  status: row.status,
  started_at: row.started_at ?? null,
  completed_at: row.completed_at ?? null,
  profile: row.profile,
  rubric_version: row.rubric_version == null ? null : Number(row.rubric_version),
  scores: row.status === "completed" ? pickScores(row as Record<string, unknown>) : null,
  evidence: row.evidence == null ? null : (JSON.parse(row.evidence) as Record<string, unknown>),
});

/**
 * The scans of `ids` (one statement) with their universities (from `refs`, else one more statement), keyed by id;
 * an unknown id is absent. The universities are not joined: their pages and the scans' would each be read at
 * random, where the references are in memory already on the server (docs/performance.md).
 */
export async function scansById(
  db: DB,
  ids: readonly number[],
  refs?: UniversityRefs,
): Promise<Map<number, ScanDetail>> {
  const rows = await scanRows(db, ids);
  const universityIds = [...new Set(rows.map((row) => Number(row.university_id)))];
  const universities = refs ? await refs(universityIds) : new Map<number, UniversityRef>();
  const unknown = universityIds.filter((id) => !universities.has(id));
  if (unknown.length > 0) for (const [id, ref] of await storedRefs(db, unknown)) universities.set(id, ref);
  const out = new Map<number, ScanDetail>();
  for (const row of rows) {
    const university = universities.get(Number(row.university_id));
    // A university deleted between the two reads takes its scans with it (on delete cascade).
    if (university === undefined) continue;
    out.set(Number(row.id), scanDetail(row, university));
  }
  return out;
}

/** One scan of any status with its university; 404 for an unknown id. */
export async function getScan(db: DB, id: number, refs?: UniversityRefs): Promise<ScanDetail> {
  const scan = (await scansById(db, [id], refs)).get(id);
  if (!scan) throw notFound(`Scan ${id} does not exist`);
  return scan;
}
