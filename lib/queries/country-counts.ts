import { sql } from "kysely";
import type { DB } from "../schema/database.ts";
import { countAll, toNumber } from "./shapes.ts";

export interface CountryCount {
  /** ISO 3166-1 alpha-2, upper case. */
  country: string;
  universities: number;
  /** Universities ranked by overall score (their latest completed scan measures it). */
  ranked: number;
}

/** Every country with universities, by code: how many, and how many are ranked. */
export async function countryCounts(db: DB): Promise<CountryCount[]> {
  const rows = await db
    .selectFrom("universities as u")
    .leftJoin("latest_scans as l", "l.university_id", "u.id")
    .select([
      "u.country",
      countAll.as("universities"),
      sql<number | string>`count(l.overall_score)`.as("ranked"),
    ])
    .groupBy("u.country")
    .orderBy("u.country")
    .execute();
  return rows.map((r) => ({
    country: r.country,
    universities: toNumber(r.universities),
    ranked: toNumber(r.ranked),
  }));
}
