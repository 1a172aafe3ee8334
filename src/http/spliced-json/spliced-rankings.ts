import type { Category, DB, LeaderboardParams, RankingsParams } from "../../../lib/index.ts";
import { leaderboardPage } from "../../../lib/queries/leaderboard.ts";
import type { RankedRow } from "../../../lib/queries/rank.ts";
import { rankingPage } from "../../../lib/queries/rankings.ts";
import type { KeptRowArray } from "./kept-rows.ts";
import { compositesAt, type RankedRowText, rankedRowsJson, scanMembersAt } from "./ranked-row-texts.ts";

/**
 * The HTTP fast path of rankings and leaderboards: the same page as the core's `rankings` and `leaderboard`, its
 * rows spliced from texts serialised once per data generation instead of read and serialised per request. The
 * bytes equal `JSON.stringify` of the core's answer (test/db/spliced-json.test.ts); why it exists is in
 * docs/performance.md.
 */
export async function splicedRankings(db: DB, params: RankingsParams = {}) {
  const { rows, meta } = await rankingPage(db, params);
  return { data: await rankingRowsJson(db, rows), meta };
}

export async function splicedLeaderboard(db: DB, category: Category, params: LeaderboardParams = {}) {
  const { rows, meta } = await leaderboardPage(db, category, params);
  return { data: await leaderboardRowsJson(db, rows), meta };
}

/** A ranking's row: rank, the university, its composites. */
const rankingRow: RankedRowText = (r, d, slot, university) =>
  `{"rank":${r.rank},${university},${compositesAt(d, slot)}}`;

/** A leaderboard's row: rank, the university, the score, the latest scan. */
const leaderboardRow: RankedRowText = (r, d, slot, university) =>
  `{"rank":${r.rank},"university":{${university}},"score":${JSON.stringify(r.score)},${scanMembersAt(d, slot)}}`;

/** Ranked rows as the rows of a ranking. */
export const rankingRowsJson = (db: DB, rows: readonly RankedRow[]): Promise<KeptRowArray> =>
  rankedRowsJson(db, rows, rankingRow);

/** Ranked rows as the rows of a leaderboard. */
export const leaderboardRowsJson = (db: DB, rows: readonly RankedRow[]): Promise<KeptRowArray> =>
  rankedRowsJson(db, rows, leaderboardRow);
