import { sql } from "kysely";
import { generationMemo } from "../db/generation-memo.ts";
import type { DB } from "../schema/database.ts";
import type { RankedScoreName } from "../scores/catalogue.ts";
import { tenthsCode } from "../scores/tenths.ts";
import { patchByValue, patchedLength, type ValueEntry } from "./patch-runs.ts";
import { pageOffset } from "./shapes.ts";

/**
 * Competition ranking (1, 2, 2, 4) over the materialised latest scans, ordered by one score descending,
 * ties by university id. Shared by rankings and leaderboards.
 */
export interface RankQuery {
  score: RankedScoreName;
  country?: string | undefined;
  /** Only universities whose latest scan has this profile; every one when null or absent. */
  profile?: string | null | undefined;
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
 * One whole ranking (a score, optionally one country) as parallel arrays, in ranking order. Built by one sorted
 * read of `latest_scans` and kept for the data generation it was built at (patched to a later one after a write of
 * scans), so a page anywhere in the ranking, its total and its ranks cost a binary search and a slice instead of a
 * count and an OFFSET walk over the whole index (O(offset) per request). A position's competition rank is where
 * its score's ties begin (`rankedRows`, `rankAt`), so ranks are not stored.
 */
export interface Ranking {
  /** The score, country and profile it ranks (`score\u0000country\u0000profile`). */
  key: string;
  ids: Int32Array;
  /**
   * The scores, each `scale` times its value: tenths in 16 bits (`scale` 10) when every score is a tenth of 0–100, as
   * unirank's scores are; else the numbers themselves (`scale` 1). Read them through `scoreAt`.
   */
  scores: Uint16Array | Float64Array;
  scale: 10 | 1;
}

/** The score at position `i`: exactly the number read, as `k / 10 === value` for the tenths kept. */
export const scoreAt = (ranking: Ranking, i: number): number => (ranking.scores[i] as number) / ranking.scale;

/** Positions kept per database handle across all memoised rankings (6 or 12 bytes each, at most about 18 MB). */
const MAX_ENTRIES = 1_500_000;

/**
 * The rows of the ranking `key` as its order gives them (score descending, ties by university id); of the
 * universities `ids` only, if given.
 */
function rankingRows(db: DB, key: string, ids?: readonly number[]) {
  const [score, country, profile] = key.split("\u0000") as [RankedScoreName, string, string];
  let q = db
    .selectFrom("latest_scans")
    .select(["university_id", sql<number>`${sql.ref(score)}`.as("score")])
    .where(score, "is not", null);
  if (country !== "") q = q.where("country", "=", country);
  if (profile !== "") q = q.where("profile", "=", profile);
  if (ids) q = q.where("university_id", "in", ids);
  return q.orderBy(score, "desc").orderBy("university_id", "asc").execute();
}

/** A score as kept at `scale`: its code of tenths, or itself. */
const kept = (value: number, scale: 10 | 1): number => (scale === 10 ? tenthsCode(value) : value);

/** Whether a score is a tenth of 0–100, kept exactly as `k / 10` in 16 bits. */
const isTenth = (value: number): boolean => tenthsCode(value) >= 0;

const emptyRanking = (key: string, n: number, scale: 10 | 1): Ranking => ({
  key,
  ids: new Int32Array(n),
  scores: scale === 10 ? new Uint16Array(n) : new Float64Array(n),
  scale,
});

async function buildRanking(db: DB, key: string): Promise<Ranking> {
  const rows = await rankingRows(db, key);
  const ranking = emptyRanking(key, rows.length, rows.every((r) => isTenth(Number(r.score))) ? 10 : 1);
  rows.forEach((r, i) => {
    ranking.ids[i] = Number(r.university_id);
    ranking.scores[i] = kept(Number(r.score), ranking.scale);
  });
  return ranking;
}

/**
 * A ranking of an earlier generation brought up to date by reading again only the rows of `latest_scans` of the
 * `changed` universities: their old places go and their new ones are merged in. The same arrays as a build
 * (tested against the SQL's order).
 */
async function patchRanking(
  db: DB,
  key: string,
  old: Ranking,
  changed: ReadonlySet<number>,
): Promise<Ranking> {
  const rows = await rankingRows(db, key, [...changed]);
  // Tenths stay tenths while every new score is one; else the patched ranking keeps the numbers.
  const scale = old.scale === 10 && rows.every((r) => isTenth(Number(r.score))) ? 10 : 1;
  const scores = scale === old.scale ? old.scores : Float64Array.from(old.scores, (v) => v / old.scale);
  const added: ValueEntry[] = rows.map((r) => ({
    id: Number(r.university_id),
    value: kept(Number(r.score), scale),
  }));
  const runs = patchByValue(scores, old.ids, changed, added);
  const next = emptyRanking(key, patchedLength(runs), scale);
  for (const run of runs) {
    if ("added" in run) {
      const e = added[run.added] as ValueEntry;
      next.ids[run.out] = e.id;
      next.scores[run.out] = e.value;
      continue;
    }
    next.ids.set(old.ids.subarray(run.from, run.to), run.out);
    next.scores.set(scores.subarray(run.from, run.to), run.out);
  }
  return next;
}

/**
 * The ranking of a score (in a country, of a profile), built at most once per data generation; after a write of
 * scans, patched with the universities it changed.
 */
const rankingMemo = generationMemo(buildRanking, {
  weight: (r) => r.ids.length,
  maxWeight: MAX_ENTRIES,
  patch: patchRanking,
});
export const rankingKey = (
  score: RankedScoreName,
  country: string | undefined,
  profile?: string | null | undefined,
): string => `${score}\u0000${country ?? ""}\u0000${profile ?? ""}`;

/** The current ranking of a score (in a country, of a profile), built at most once per data generation. */
export const rankingOf = (
  db: DB,
  score: RankedScoreName,
  country: string | undefined,
  profile?: string | null | undefined,
): Promise<Ranking> => rankingMemo(db, rankingKey(score, country, profile));

/** First position whose score is at most `bound` (`strict`: below it); the scores descend. */
function firstAtMost(ranking: Ranking, bound: number, strict: boolean): number {
  let lo = 0;
  let hi = ranking.scores.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const s = scoreAt(ranking, mid);
    if (strict ? s < bound : s <= bound) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** The competition rank (1, 2, 2, 4) of position `i`: one more than the first position of its score's ties. */
export const rankAt = (ranking: Ranking, i: number): number =>
  firstAtMost(ranking, scoreAt(ranking, i), false) + 1;

/** The rows of positions `from`..`to` of `ranking`, with their competition ranks. */
export function rankedRows(ranking: Ranking, from: number, to: number): RankedRow[] {
  const { ids, scores } = ranking;
  const rows: RankedRow[] = [];
  let rank = 0;
  for (let i = from; i < to; i++) {
    const score = scoreAt(ranking, i);
    rank = i === from ? rankAt(ranking, i) : scores[i] === scores[i - 1] ? rank : i + 1;
    rows.push({ rank, university_id: ids[i] as number, score });
  }
  return rows;
}

/** The positions `[start, end)` of a ranking whose scores lie within `min`..`max` (inclusive). */
export function windowOf(
  ranking: Ranking,
  min: number | undefined,
  max: number | undefined,
): [number, number] {
  const start = max === undefined ? 0 : firstAtMost(ranking, max, false);
  const end = min === undefined ? ranking.scores.length : firstAtMost(ranking, min, true);
  return [start, Math.max(start, end)];
}

export async function rankPage(db: DB, q: RankQuery): Promise<{ rows: RankedRow[]; total: number }> {
  const ranking = await rankingOf(db, q.score, q.country, q.profile);
  const [start, end] = windowOf(ranking, q.min, q.max);
  const total = Math.max(0, end - start);
  const offset = pageOffset(q.page, q.limit);
  if (offset === null || offset >= total) return { rows: [], total };
  return { rows: rankedRows(ranking, start + offset, Math.min(end, start + offset + q.limit)), total };
}

export interface RankPosition {
  /** Competition rank (1, 2, 2, 4). */
  rank: number;
  /** Universities in this ranking. */
  total: number;
}

/**
 * Position of `id` among the ties of `value` (which begin at `tieStart`), ordered by university id: a binary search.
 */
function positionOf(ranking: Ranking, tieStart: number, value: number, id: number): number {
  let lo = tieStart;
  let hi = firstAtMost(ranking, value, true);
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const at = ranking.ids[mid]!;
    if (at === id) return mid;
    if (at < id) lo = mid + 1;
    else hi = mid;
  }
  return -1;
}

/**
 * Where a university stands in the ranking of a score (in a country, of a profile), given its value of that score (the
 * ranking is searched by value and id, not walked); null when it is not ranked there. A value from another data
 * generation than the ranking's falls back to a walk of the ranking.
 */
export async function rankPosition(
  db: DB,
  score: RankedScoreName,
  country: string | undefined,
  universityId: number,
  value: number,
  profile?: string | null,
): Promise<RankPosition | null> {
  const ranking = await rankingOf(db, score, country, profile);
  const total = ranking.ids.length;
  // Found among its value's ties, its competition rank is where they begin.
  const tieStart = firstAtMost(ranking, value, false);
  if (positionOf(ranking, tieStart, value, universityId) >= 0) return { rank: tieStart + 1, total };
  const i = ranking.ids.indexOf(universityId);
  return i < 0 ? null : { rank: rankAt(ranking, i), total };
}

/** The universities ranked by a score, in ranking order (the memoised ranking's own array: do not change it). */
export async function rankedIds(db: DB, score: RankedScoreName): Promise<Int32Array> {
  return (await rankingOf(db, score, undefined)).ids;
}
