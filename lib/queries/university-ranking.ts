import type { DB } from "../schema/database.ts";
import { rankPosition } from "./rank.ts";

/** Where a university stands by overall score: among all ranked universities and within its country. */
export interface UniversityRanking {
  score: "overall_score";
  /** The profile of the university's latest scan: it is ranked among the universities measured the same way. */
  profile: string;
  rank: number;
  total: number;
  country: string;
  country_rank: number;
  country_total: number;
}

/**
 * The university's overall rank, as `/rankings?profile=` numbers it for the profile of its latest scan (competition
 * rank over the latest completed scans of that profile that measure the overall score: like with like,
 * docs/scores.md), and its rank in its country; null when it is not ranked. Takes the university as
 * `getUniversity` answers it (its latest scan's overall score finds it in the ranking).
 */
export async function universityRanking(
  db: DB,
  university: { id: number; country: string; latest_scan: { overall_score: number | null } | null },
): Promise<UniversityRanking | null> {
  const value = university.latest_scan?.overall_score;
  if (value == null) return null;
  const latest = await db
    .selectFrom("latest_scans")
    .select("profile")
    .where("university_id", "=", university.id)
    .executeTakeFirst();
  if (!latest) return null;
  return rankingByProfile(db, university.id, university.country, value, latest.profile);
}

/** `universityRanking` of a university whose latest scan's overall score and profile are known already. */
export async function rankingByProfile(
  db: DB,
  id: number,
  countryCode: string,
  overallScore: number,
  profile: string,
): Promise<UniversityRanking | null> {
  const [all, country] = await Promise.all([
    rankPosition(db, "overall_score", undefined, id, overallScore, profile),
    rankPosition(db, "overall_score", countryCode, id, overallScore, profile),
  ]);
  if (!all || !country) return null;
  return {
    score: "overall_score",
    profile,
    rank: all.rank,
    total: all.total,
    country: countryCode,
    country_rank: country.rank,
    country_total: country.total,
  };
}
