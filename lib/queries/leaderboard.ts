import type { LeaderboardParams } from "../params/operations.ts";
import type { DB } from "../schema/database.ts";
import { CATEGORIES, type Category } from "../scores/catalogue.ts";
import type { UniversityRef } from "./get-scan.ts";
import type { JsonText } from "./json-text.ts";
import { rankPage } from "./rank.ts";
import { rankedRowsJson, textAt } from "./ranked-rows.ts";

export interface LeaderboardEntry {
  rank: number;
  university: UniversityRef;
  score: number;
  scan_id: number;
  /** Completion date of the scan, `YYYY-MM-DD`. */
  scan_date: string;
}

export interface Leaderboard {
  data: LeaderboardEntry[];
  meta: { category: Category; score: string; limit: number; total: number };
}

/** `leaderboard` as the HTTP API sends it: rows spliced from texts serialised once per data generation. */
export async function leaderboardJson(
  db: DB,
  category: Category,
  params: LeaderboardParams = {},
): Promise<{ data: JsonText; meta: Leaderboard["meta"] }> {
  const { limit = 10 } = params;
  const score = CATEGORIES[category];
  const { rows, total } = await rankPage(db, { score, page: 1, limit });
  const meta = { category, score, limit, total };
  const data = await rankedRowsJson(
    db,
    rows,
    (r, d, slot) =>
      `{"rank":${r.rank},"university":{${textAt(d.university, slot)}},"score":${r.score}${textAt(d.scan, slot)}`,
  );
  return { data, meta };
}

/**
 * Top universities of one category by the category's score in their latest completed scan: competition
 * rank (1, 2, 2, 4), ties by university id; universities whose score is not measured are absent.
 */
export async function leaderboard(
  db: DB,
  category: Category,
  params: LeaderboardParams = {},
): Promise<Leaderboard> {
  const { data, meta } = await leaderboardJson(db, category, params);
  return { data: JSON.parse(data.text) as LeaderboardEntry[], meta };
}
