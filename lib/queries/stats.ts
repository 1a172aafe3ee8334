import { sql } from "kysely";
import { generationMemo } from "../db/generation-memo.ts";
import type { DB } from "../schema/database.ts";
import { round1 } from "../scores/derive.ts";
import { type ScanTotals, scanTotals } from "./scan-totals.ts";
import { countAll, toNumber } from "./shapes.ts";

export interface PlatformStats {
  total_universities: number;
  /** Completed scans. */
  total_scans: number;
  /** Mean overall score of each university's latest completed scan, one decimal; null when none. */
  average_score: number | null;
  scanned_universities: number;
  countries: number;
  last_scan_at: string | null;
}

/** Universities and their countries: read once per universities generation (a scan leaves them as they are). */
const universitiesMemo = generationMemo(
  (db: DB) =>
    db
      .selectFrom("universities")
      .select([countAll.as("n"), sql<number>`count(distinct country)`.as("countries")])
      .executeTakeFirstOrThrow(),
  { follows: "universities" },
);

/** Mean of the latest overall scores, one decimal: summed in university order for each totals (a running sum, patched, would drift). */
const averages = new WeakMap<ScanTotals, number | null>();
function averageOf(scans: ScanTotals): number | null {
  const known = averages.get(scans);
  if (known !== undefined) return known;
  let sum = 0;
  let measured = 0;
  for (const score of scans.overall) {
    if (Number.isNaN(score)) continue;
    sum += score;
    measured++;
  }
  const average = measured === 0 ? null : round1(sum / measured);
  averages.set(scans, average);
  return average;
}

export async function stats(db: DB): Promise<PlatformStats> {
  const [universities, scans] = await Promise.all([universitiesMemo(db, ""), scanTotals(db)]);
  return {
    total_universities: toNumber(universities.n),
    total_scans: scans.completed,
    average_score: averageOf(scans),
    scanned_universities: scans.ids.length,
    countries: toNumber(universities.countries),
    last_scan_at: scans.last,
  };
}
