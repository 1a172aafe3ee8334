import type { Category, DB, LeaderboardParams, RankingsParams } from "../../../lib/index.ts";
import { leaderboardPage } from "../../../lib/queries/leaderboard.ts";
import { rankingPage } from "../../../lib/queries/rankings.ts";
import { rankedRowsJson, textAt } from "./ranked-row-texts.ts";

/**
 * The HTTP fast path of rankings and leaderboards: the same page as the core's `rankings` and `leaderboard`, its
 * rows spliced from texts serialised once per data generation instead of read and serialised per request. The
 * bytes equal `JSON.stringify` of the core's answer (test/db/spliced-json.test.ts); why it exists is in
 * docs/performance.md.
 */
export async function splicedRankings(db: DB, params: RankingsParams = {}) {
  const { rows, meta } = await rankingPage(db, params);
  const data = await rankedRowsJson(
    db,
    rows,
    (r, d, slot) => `{"rank":${r.rank},${textAt(d.university, slot)},${textAt(d.composites, slot)}}`,
  );
  return { data, meta };
}

export async function splicedLeaderboard(db: DB, category: Category, params: LeaderboardParams = {}) {
  const { rows, meta } = await leaderboardPage(db, category, params);
  const data = await rankedRowsJson(
    db,
    rows,
    (r, d, slot) =>
      `{"rank":${r.rank},"university":{${textAt(d.university, slot)}},"score":${JSON.stringify(r.score)},${textAt(d.scan, slot)}}`,
  );
  return { data, meta };
}
