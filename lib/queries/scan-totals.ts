import { sql } from "kysely";
import { generationMemo } from "../db/generation-memo.ts";
import { inReadSnapshot } from "../db/read-snapshot.ts";
import type { DB } from "../schema/database.ts";
import { round1 } from "../scores/derive.ts";
import { patchById, patchedLength } from "./patch-runs.ts";
import { toNumber } from "./shapes.ts";

/**
 * What the statistics take from the scans: the completed scans, and each university's latest completed scan (its
 * count of completed scans and overall score, in `latest_scans`), by university id ascending.
 */
export interface ScanTotals {
  completed: number;
  ids: Int32Array;
  scanCounts: Int32Array;
  /** Overall score; NaN where the latest scan has none. */
  overall: Float64Array;
  /** The latest completion, ISO 8601 text (which sorts as it reads). */
  last: string | null;
  /** Mean of the overall scores, one decimal; null when none is measured. */
  average: number | null;
}

interface LatestRow {
  university_id: number | string;
  scan_count: number | string;
  overall_score: number | null;
  completed_at: string;
}

const latestRows = (db: DB, ids?: readonly number[]) => {
  let q = db
    .selectFrom("latest_scans")
    .select(["university_id", "scan_count", "overall_score", "completed_at"])
    .orderBy("university_id");
  if (ids) q = q.where("university_id", "in", ids);
  return q.execute() as Promise<LatestRow[]>;
};

/**
 * How many completed scans there are: the sum of `latest_scans.scan_count` (each university's row counts its
 * completed scans), one row a university rather than an index entry a scan.
 */
export async function completedScanCount(db: DB): Promise<number> {
  const row = await db
    .selectFrom("latest_scans")
    .select(sql<number | string | null>`sum(scan_count)`.as("n"))
    .executeTakeFirst();
  return toNumber(row?.n ?? 0);
}

const later = (a: string | null, b: string | null): string | null =>
  a === null ? b : b === null || a >= b ? a : b;

/** Mean of the kept overall scores, summed in id order each time (a running sum, patched, would drift). */
function averageOf(overall: Float64Array): number | null {
  let sum = 0;
  let measured = 0;
  for (const score of overall) {
    if (Number.isNaN(score)) continue;
    sum += score;
    measured++;
  }
  return measured === 0 ? null : round1(sum / measured);
}

/** Reads every university's row of `latest_scans` once, then is patched. */
async function build(db: DB): Promise<ScanTotals> {
  const [completed, rows] = await inReadSnapshot(db, async (snapshot) => [
    await completedScanCount(snapshot),
    await latestRows(snapshot),
  ]);
  const totals: ScanTotals = {
    completed,
    ids: new Int32Array(rows.length),
    scanCounts: new Int32Array(rows.length),
    overall: new Float64Array(rows.length),
    last: null,
    average: null,
  };
  rows.forEach((r, i) => {
    totals.ids[i] = Number(r.university_id);
    totals.scanCounts[i] = toNumber(r.scan_count);
    totals.overall[i] = r.overall_score ?? Number.NaN;
    totals.last = later(totals.last, r.completed_at);
  });
  totals.average = averageOf(totals.overall);
  return totals;
}

/**
 * The totals after the writes that changed the latest scans of `changed`: their rows are read again, and the
 * completed scans move by the change of their counts (each university's row counts its completed scans). A
 * university without a row any more (its scans gone, which no logged write does) makes the memo build.
 */
async function patch(db: DB, _key: string, before: ScanTotals, changed: ReadonlySet<number>) {
  const rows = await latestRows(db, [...changed]);
  const added = rows.map((r) => Number(r.university_id));
  const { runs, removed } = patchById(before.ids, changed, added);
  const now = new Set(added);
  if (removed.some((i) => !now.has(before.ids[i] as number))) return null;
  let completed = before.completed;
  for (const i of removed) completed -= before.scanCounts[i] as number;
  for (const r of rows) completed += toNumber(r.scan_count);
  const n = patchedLength(runs);
  const ids = new Int32Array(n);
  const scanCounts = new Int32Array(n);
  const overall = new Float64Array(n);
  let last = before.last;
  for (const run of runs) {
    if ("added" in run) {
      const row = rows[run.added] as LatestRow;
      ids[run.out] = added[run.added] as number;
      scanCounts[run.out] = toNumber(row.scan_count);
      overall[run.out] = row.overall_score ?? Number.NaN;
      last = later(last, row.completed_at);
    } else {
      ids.set(before.ids.subarray(run.from, run.to), run.out);
      scanCounts.set(before.scanCounts.subarray(run.from, run.to), run.out);
      overall.set(before.overall.subarray(run.from, run.to), run.out);
    }
  }
  return { completed, ids, scanCounts, overall, last, average: averageOf(overall) };
}

const memo = generationMemo(build, { patch });

/** The scan totals of the current data generation. */
export const scanTotals = (db: DB): Promise<ScanTotals> => memo(db, "");
