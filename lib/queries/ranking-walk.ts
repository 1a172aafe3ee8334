import type { DB } from "../schema/database.ts";
import type { RankedScoreName } from "../scores/catalogue.ts";
import {
  type RankedRow,
  type Ranking,
  rankedRows,
  rankingKey,
  rankingOf,
  scoreAt,
  windowOf,
} from "./rank.ts";
import { lowerBound, type WalkPage, type WalkStep, walkPins } from "./walk.ts";

export interface RankingWalkQuery {
  score: RankedScoreName;
  country?: string | undefined;
  /** Only universities whose latest scan has this profile; every one when null or absent. */
  profile?: string | null | undefined;
  min?: number | undefined;
  max?: number | undefined;
}

/** Rankings walked by cursor: 6 or 12 bytes a position (ids, scores). */
const pins = walkPins<Ranking>((r) => r.ids.byteLength + r.scores.byteLength);

/** The position after the row `[score, id]`: scores descend, ties by ascending id. */
function positionAfter(ranking: Ranking, after: readonly (string | number)[]): number {
  const [score, id] = after as [number, number];
  return lowerBound(ranking.ids.length, (i) => {
    const s = scoreAt(ranking, i);
    return s > score || (s === score && (ranking.ids[i] as number) <= id);
  });
}

/**
 * A page of a ranking (rankings, leaderboards) walked by cursor: the competition ranks, order and membership of
 * the ranking when the walk began; `after` of a step is the last row's `[score, id]`.
 */
export async function walkRanking(
  db: DB,
  q: RankingWalkQuery,
  from: WalkStep | null,
  limit: number,
): Promise<WalkPage<RankedRow>> {
  const resumed = await pins.resume(
    db,
    from,
    rankingKey(q.score, q.country, q.profile),
    () => rankingOf(db, q.score, q.country, q.profile),
    positionAfter,
  );
  const ranking = resumed.order;
  let position = resumed.offset;
  const [start, end] = windowOf(ranking, q.min, q.max);
  position = Math.min(Math.max(position, start), end);
  const stop = Math.min(end, position + limit);
  const data: RankedRow[] = rankedRows(ranking, position, stop);
  const last = data[data.length - 1];
  const next =
    stop < end && last
      ? { snapshot: pins.pin(db, ranking), offset: stop, after: [last.score, last.university_id] }
      : null;
  return { data, total: end - start, next };
}
