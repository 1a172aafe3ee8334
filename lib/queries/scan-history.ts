import { Type } from "@sinclair/typebox";
import { sql } from "kysely";
import { prepared } from "../db/prepared.ts";
import type { DB } from "../schema/database.ts";
import { COMPOSITE_SCORES } from "../scores/catalogue.ts";
import { findUniversity } from "./get-university.ts";
import { countAll, toNumber } from "./shapes.ts";
import type { WalkPage, WalkStep } from "./walk.ts";

/** The scores a history entry carries: overall and the four composites. */
export const HISTORY_SCORES = ["overall_score", ...COMPOSITE_SCORES.map((c) => c.name)] as const;
export type HistoryScoreName = (typeof HISTORY_SCORES)[number];

export type ScanHistoryEntry = { id: number; completed_at: string } & Record<HistoryScoreName, number | null>;

export interface ScanHistoryInput {
  page?: number;
  limit?: number;
}

const Score = Type.Union([Type.Number({ minimum: 0, maximum: 100 }), Type.Null()]);
export const ScanHistorySchema = Type.Array(
  Type.Object({
    id: Type.Integer({ description: "Scan id" }),
    completed_at: Type.String({ description: "ISO 8601 with offset" }),
    ...Object.fromEntries(HISTORY_SCORES.map((name) => [name, Score])),
  }),
);

function historyEntry(row: Record<string, unknown>): ScanHistoryEntry {
  const entry = { id: Number(row.id), completed_at: String(row.completed_at) } as ScanHistoryEntry;
  for (const name of HISTORY_SCORES) {
    const v = row[name];
    entry[name] = v == null ? null : Number(v);
  }
  return entry;
}

/**
 * A university's completed scans, oldest first (ties by scan id), with the overall and composite scores:
 * the series a history chart draws. Paged; 404 when the university does not exist.
 *
 * Most pages are read in one statement: a page shorter than its limit and not empty is the last, so the total is
 * its offset plus its rows, and its rows show the university exists (a scan's university is a foreign key). An
 * empty page asks whether the university exists; a full one, or an empty one past the first, counts.
 */
export async function scanHistory(db: DB, universityId: number, input: ScanHistoryInput = {}) {
  const page = input.page ?? 1;
  const limit = input.limit ?? 100;
  const offset = (page - 1) * limit;
  const rows = await historyPage(db, [universityId, limit, offset]);
  if (rows.length === 0) await findUniversity(db, universityId);
  const total =
    rows.length < limit && (rows.length > 0 || offset === 0)
      ? offset + rows.length
      : toNumber((await historyCount(db, [universityId]))[0]?.n ?? 0);
  return { data: rows.map(historyEntry), meta: { page, limit, total } };
}

/** The completed scans of a university (with a completion time), to select from. */
const completedOf = (db: DB, universityId: number) =>
  db
    .selectFrom("scans")
    .where("university_id", "=", universityId)
    .where("status", "=", "completed")
    .where("completed_at", "is not", null);

// A page of history and its count, read on every request: built and compiled once per database.
const historyPage = prepared((db, arg: (i: number) => number) =>
  completedOf(db, arg(0))
    .select(["id", "completed_at", ...HISTORY_SCORES])
    .orderBy("completed_at")
    .orderBy("id")
    .limit(arg(1))
    .offset(arg(2)),
);
const historyCount = prepared((db, arg: (i: number) => number) =>
  completedOf(db, arg(0)).select(countAll.as("n")),
);

/** A history entry with its university: the rows a table of every history is made of (`historiesAfter`). */
export type HistoryRow = Record<string, unknown> & { university_id: number | string; id: number | string };

/**
 * Every university's scans with a completion time, in history order within each university, universities
 * ascending. `status` is read, not asked for: with it in the WHERE clause SQLite chose the `(status,
 * completed_at)` index and sorted the lot; without, it walks `(university_id, status, completed_at, id)` in order.
 */
const historiesOrdered = (db: DB) =>
  db
    .selectFrom("scans")
    .where("completed_at", "is not", null)
    .select(["university_id", "status", "id", "completed_at", ...HISTORY_SCORES])
    .orderBy("university_id")
    .orderBy("status")
    .orderBy("completed_at")
    .orderBy("id");
const historiesAfterQuery = prepared((db, arg: (i: number) => number) =>
  historiesOrdered(db).where("university_id", ">", arg(0)).limit(arg(1)),
);
const historiesOfQuery = prepared((db, arg: (i: number) => number, n) =>
  historiesOrdered(db).where(
    "university_id",
    "in",
    Array.from({ length: n }, (_, i) => arg(i)),
  ),
);

const completedRows = (rows: HistoryRow[]): HistoryRow[] => rows.filter((row) => row.status === "completed");

/**
 * The whole histories of the universities after `after` (by id), read about `limit` scans at a time: universities
 * ascending, each one's entries in history order, and the university to read on from (null after the last).
 */
export async function historiesAfter(
  db: DB,
  after: number,
  limit: number,
): Promise<{ rows: HistoryRow[]; next: number | null }> {
  const read = (await historiesAfterQuery(db, [after, limit])) as HistoryRow[];
  if (read.length < limit) return { rows: completedRows(read), next: null };
  // The last university's scans may go on past the limit: it is read next time, or whole now if it is alone.
  const last = read[read.length - 1]?.university_id;
  let cut = read.length;
  while (cut > 0 && read[cut - 1]?.university_id === last) cut--;
  if (cut === 0) return { rows: await historiesOf(db, [Number(last)]), next: Number(last) };
  return { rows: completedRows(read.slice(0, cut)), next: Number(read[cut - 1]?.university_id) };
}

/** The whole histories of `ids`, in the order of `historiesAfter`. */
export async function historiesOf(db: DB, ids: readonly number[]): Promise<HistoryRow[]> {
  if (ids.length === 0) return [];
  return completedRows((await historiesOfQuery(db, ids, ids.length)) as HistoryRow[]);
}

/**
 * A university's completed scans walked by cursor, oldest first: keyset on `(completed_at, id)` (a completed scan
 * never changes, so no order needs pinning); `after` of a step is the last row's `[completed_at, id]`. 404 when
 * the university does not exist.
 */
export async function walkScanHistory(
  db: DB,
  universityId: number,
  from: WalkStep | null,
  limit: number,
): Promise<WalkPage<ScanHistoryEntry>> {
  let rows = completedOf(db, universityId).select(["id", "completed_at", ...HISTORY_SCORES]);
  if (from) {
    const [at, id] = from.after as [string, number];
    rows = rows.where(sql<boolean>`(completed_at > ${at} or (completed_at = ${at} and id > ${id}))`);
  }
  const found = await rows
    .orderBy("completed_at")
    .orderBy("id")
    .limit(limit + 1)
    .execute();
  // As `scanHistory`: rows show the university exists, and a first step that holds them all is the total.
  if (found.length === 0) await findUniversity(db, universityId);
  const total =
    from === null && found.length <= limit
      ? found.length
      : toNumber((await historyCount(db, [universityId]))[0]?.n ?? 0);
  const data = found.slice(0, limit).map(historyEntry);
  const last = data[data.length - 1];
  const next =
    found.length > limit && last ? { snapshot: null, offset: 0, after: [last.completed_at, last.id] } : null;
  return { data, total, next };
}
