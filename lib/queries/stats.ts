import { sql } from "kysely";
import { generationMemo } from "../db/generation-memo.ts";
import type { DB } from "../schema/database.ts";
import { round1 } from "../scores/derive.ts";
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

/**
 * Completed scans and the latest ones: read once per data generation. Counting a million scans takes a tenth of a
 * second at 100,000 universities, so each request read them before (docs/performance.md).
 */
const scansMemo = generationMemo((db: DB) =>
  Promise.all([
    db
      .selectFrom("scans")
      .select(countAll.as("n"))
      .where("status", "=", "completed")
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("latest_scans")
      .select([
        countAll.as("n"),
        sql<number | null>`avg(overall_score)`.as("avg"),
        sql<string | null>`max(completed_at)`.as("last"),
      ])
      .executeTakeFirstOrThrow(),
  ]),
);

export async function stats(db: DB): Promise<PlatformStats> {
  const [universities, [scans, latest]] = await Promise.all([universitiesMemo(db, ""), scansMemo(db, "")]);
  return {
    total_universities: toNumber(universities.n),
    total_scans: toNumber(scans.n),
    average_score: latest.avg == null ? null : round1(Number(latest.avg)),
    scanned_universities: toNumber(latest.n),
    countries: toNumber(universities.countries),
    last_scan_at: latest.last ?? null,
  };
}
