import type { LeaderboardParams } from "../params/operations.ts";
import type { DB } from "../schema/database.ts";
import { CATEGORIES, type Category } from "../scores/catalogue.ts";
import { chooseProfile } from "./profiles.ts";
import { type RankedRow, rankPage } from "./rank.ts";
import { rankedDetailsOf } from "./ranked-details.ts";
import type { LeaderboardEntry, LeaderboardMeta } from "./response-schemas.ts";

export type { LeaderboardEntry, LeaderboardMeta } from "./response-schemas.ts";

export interface Leaderboard {
  data: LeaderboardEntry[];
  meta: LeaderboardMeta;
}

/** The top of one category as ranks and university ids, with its meta; `leaderboard` adds the details. */
export async function leaderboardPage(
  db: DB,
  category: Category,
  params: LeaderboardParams = {},
): Promise<{ rows: RankedRow[]; meta: LeaderboardMeta }> {
  const { limit = 10 } = params;
  const score = CATEGORIES[category];
  const choice = await chooseProfile(db, score, params.profile);
  const { rows, total } = await rankPage(db, { score, profile: choice.profile, page: 1, limit });
  return { rows, meta: { category, score, limit, total, ...choice } };
}

/**
 * Top universities of one category by the category's score in their latest completed scan: competition
 * rank (1, 2, 2, 4), ties by university id; universities whose score is not measured are absent. A category of
 * overall or a composite ranks one profile (the main one unless `profile` says otherwise; docs/scores.md).
 */
export async function leaderboard(
  db: DB,
  category: Category,
  params: LeaderboardParams = {},
): Promise<Leaderboard> {
  const { rows, meta } = await leaderboardPage(db, category, params);
  const details = await rankedDetailsOf(
    db,
    rows.map((r) => r.university_id),
  );
  const data: LeaderboardEntry[] = [];
  for (const r of rows) {
    const d = details.get(r.university_id);
    if (d) data.push({ rank: r.rank, university: d.university, score: r.score, ...d.scan });
  }
  return { data, meta };
}
