import { sql } from "kysely";
import type { DB } from "../schema/database.ts";
import type { RankedScoreName } from "../scores/catalogue.ts";
import { readGeneration } from "../write/generation.ts";
import { pageOffset } from "./shapes.ts";

/**
 * Competition ranking (1, 2, 2, 4) over the materialised latest scans, ordered by one score descending,
 * ties by university id. Shared by rankings and leaderboards.
 */
export interface RankQuery {
  score: RankedScoreName;
  country?: string | undefined;
  /** Inclusive window of the ranking; ranks keep their numbers. */
  min?: number | undefined;
  max?: number | undefined;
  page: number;
  limit: number;
}

export interface RankedRow {
  rank: number;
  university_id: number;
  score: number;
}

/**
 * One whole ranking (a score, optionally one country) as parallel arrays, in ranking order, with the
 * competition rank of every position. Built by one ordered scan of the score's index and kept for the data
 * generation it was built at, so a page anywhere in the ranking, its total and its ranks cost a binary search
 * and a slice instead of a count and an OFFSET walk over the whole index (O(offset) per request).
 */
interface Ranking {
  ids: Int32Array;
  scores: Float64Array;
  ranks: Int32Array;
}

interface Memo {
  generation: number;
  rankings: Map<string, Promise<Ranking>>;
  entries: number;
}

/** Positions kept per database handle across all memoised rankings (16 bytes each, about 24 MB). */
const MAX_ENTRIES = 1_500_000;
const memos = new WeakMap<DB, Memo>();

async function buildRanking(db: DB, score: RankedScoreName, country: string | undefined): Promise<Ranking> {
  let q = db
    .selectFrom("latest_scans")
    .select(["university_id", sql<number>`${sql.ref(score)}`.as("score")])
    .where(score, "is not", null);
  if (country !== undefined) q = q.where("country", "=", country);
  const rows = await q.orderBy(score, "desc").orderBy("university_id", "asc").execute();
  const n = rows.length;
  const ranking: Ranking = { ids: new Int32Array(n), scores: new Float64Array(n), ranks: new Int32Array(n) };
  for (let i = 0; i < n; i++) {
    const row = rows[i]!;
    const s = Number(row.score);
    ranking.ids[i] = Number(row.university_id);
    ranking.scores[i] = s;
    ranking.ranks[i] = i > 0 && s === ranking.scores[i - 1] ? ranking.ranks[i - 1]! : i + 1;
  }
  return ranking;
}

/** The ranking of `score` (in `country`), built at most once per data generation. */
async function rankingOf(db: DB, score: RankedScoreName, country: string | undefined): Promise<Ranking> {
  // Read the generation before the data, so a ranking is never labelled newer than what it holds.
  const generation = await readGeneration(db);
  let memo = memos.get(db);
  if (!memo || memo.generation !== generation) {
    memo = { generation, rankings: new Map(), entries: 0 };
    memos.set(db, memo);
  }
  const key = `${score}\u0000${country ?? ""}`;
  const held = memo.rankings.get(key);
  if (held) {
    memo.rankings.delete(key); // most recently used last
    memo.rankings.set(key, held);
    return held;
  }
  const current = memo;
  const building = buildRanking(db, score, country);
  current.rankings.set(key, building);
  try {
    const ranking = await building;
    current.entries += ranking.ids.length;
    for (const [k, p] of current.rankings) {
      if (current.entries <= MAX_ENTRIES || k === key) break;
      current.rankings.delete(k);
      current.entries -= (await p).ids.length;
    }
    return ranking;
  } catch (e) {
    current.rankings.delete(key);
    throw e;
  }
}

/** First position whose score is at most `bound` (`strict`: below it), in a descending array. */
function firstAtMost(scores: Float64Array, bound: number, strict: boolean): number {
  let lo = 0;
  let hi = scores.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const s = scores[mid]!;
    if (strict ? s < bound : s <= bound) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

export async function rankPage(db: DB, q: RankQuery): Promise<{ rows: RankedRow[]; total: number }> {
  const ranking = await rankingOf(db, q.score, q.country);
  const start = q.max === undefined ? 0 : firstAtMost(ranking.scores, q.max, false);
  const end = q.min === undefined ? ranking.scores.length : firstAtMost(ranking.scores, q.min, true);
  const total = Math.max(0, end - start);
  const offset = pageOffset(q.page, q.limit);
  if (offset === null || offset >= total) return { rows: [], total };
  const rows: RankedRow[] = [];
  for (let i = start + offset; i < Math.min(end, start + offset + q.limit); i++) {
    rows.push({ rank: ranking.ranks[i]!, university_id: ranking.ids[i]!, score: ranking.scores[i]! });
  }
  return { rows, total };
}
