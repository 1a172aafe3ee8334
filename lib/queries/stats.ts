import { sql } from "kysely";
import { generationMemo } from "../db/generation-memo.ts";
import type { DB } from "../schema/database.ts";
import { scanTotals } from "./scan-totals.ts";
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

export async function stats(db: DB): Promise<PlatformStats> {
  const [universities, scans] = await Promise.all([universitiesMemo(db, ""), scanTotals(db)]);
  return {
    total_universities: toNumber(universities.n),
    total_scans: scans.completed,
    average_score: scans.average,
    scanned_universities: scans.ids.length,
    countries: toNumber(universities.countries),
    last_scan_at: scans.last,
  };
}
