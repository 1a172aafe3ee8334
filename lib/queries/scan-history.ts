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

/** The completed scans of a university, to select from; 404 when the university does not exist. */
async function completedScansOf(db: DB, universityId: number) {
  await findUniversity(db, universityId);
  return completedOf(db, universityId);
}

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
 */
export async function scanHistory(db: DB, universityId: number, input: ScanHistoryInput = {}) {
  const page = input.page ?? 1;
  const limit = input.limit ?? 100;
  await findUniversity(db, universityId);
  const [rows, [total]] = await Promise.all([
    historyPage(db, [universityId, limit, (page - 1) * limit]),
    historyCount(db, [universityId]),
  ]);
  const data = rows.map(historyEntry);
  return { data, meta: { page, limit, total: toNumber(total?.n ?? 0) } };
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
  const completed = await completedScansOf(db, universityId);
  let rows = completed.select(["id", "completed_at", ...HISTORY_SCORES]);
  if (from) {
    const [at, id] = from.after as [string, number];
    rows = rows.where(sql<boolean>`(completed_at > ${at} or (completed_at = ${at} and id > ${id}))`);
  }
  const [found, total] = await Promise.all([
    rows
      .orderBy("completed_at")
      .orderBy("id")
      .limit(limit + 1)
      .execute(),
    completed.select(countAll.as("n")).executeTakeFirstOrThrow(),
  ]);
  const data = found.slice(0, limit).map(historyEntry);
  const last = data[data.length - 1];
  const next =
    found.length > limit && last ? { snapshot: null, offset: 0, after: [last.completed_at, last.id] } : null;
  return { data, total: toNumber(total.n), next };
}
