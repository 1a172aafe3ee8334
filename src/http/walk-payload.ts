import {
  canonicalProfile,
  chooseProfile,
  type DB,
  invalidParameter,
  type RankedRow,
  type RankedScoreName,
  type WalkPage,
  type WalkStep,
} from "../../lib/index.ts";
import { decodeCursor, encodeCursor } from "./paging/cursor.ts";
import type { Payload } from "./route.ts";

export interface WalkRequest<R> {
  /** The route's operation id: a cursor is good for the list of one operation only. */
  operation: string;
  /** The parsed query, with its `cursor` and `limit`. */
  query: Record<string, unknown> & { cursor?: string | undefined; limit?: number | undefined };
  /** Types of the sort key in the operation's cursors. */
  after: readonly ("string" | "number")[];
  walk(from: WalkStep | null, limit: number): Promise<WalkPage<R>>;
  /** The answer's `data` made of the page's rows (default: the rows). */
  data?(rows: R[]): Promise<unknown> | unknown;
  /** Meta fields before `limit`, `total` and `next_cursor` (a leaderboard's category), read after the walk. */
  meta?(): Record<string, unknown>;
}

/** One page of a walk as an answer: its rows, and meta `{…, limit, total, next_cursor}`. */
export async function walkPayload<R>(request: WalkRequest<R>): Promise<Payload> {
  const { operation, query } = request;
  const limit = query.limit ?? 20;
  const from = decodeCursor(operation, query, query.cursor ?? "*", request.after);
  const page = await request.walk(from, limit);
  const next = page.next === null ? null : encodeCursor(operation, query, page.next);
  return {
    data: request.data ? await request.data(page.data) : page.data,
    meta: { ...request.meta?.(), limit, total: page.total, next_cursor: next },
  };
}

export interface RankingWalkRequest {
  operation: string;
  query: WalkRequest<RankedRow>["query"] & { profile?: string | undefined };
  score: RankedScoreName;
  /** A page of the ranking of `profile` (null: every profile). */
  walk(profile: string | null, from: WalkStep | null, limit: number): Promise<WalkPage<RankedRow>>;
  data(rows: RankedRow[]): Promise<unknown> | unknown;
  /** Meta fields before the profile's (a leaderboard's category and score). */
  meta?: Record<string, unknown>;
}

/**
 * A walk over a ranking (rankings, a leaderboard) of the profile chosen when it began: the profile travels in the
 * cursor before the ranking's sort key, so the walk keeps it whatever the data does meanwhile.
 */
export async function walkRankingPayload(db: DB, request: RankingWalkRequest): Promise<Payload> {
  const choice = await chooseProfile(db, request.score, request.query.profile);
  let profile = choice.profile;
  return walkPayload({
    operation: request.operation,
    query: request.query,
    after: ["string", "number", "number"],
    walk: async (from, limit) => {
      if (from) {
        const carried = from.after[0] as string;
        if (carried !== "" && canonicalProfile(carried) !== carried) {
          throw invalidParameter([{ param: "cursor", message: "cursor is malformed" }]);
        }
        profile = carried === "" ? null : carried;
      }
      const page = await request.walk(profile, from && { ...from, after: from.after.slice(1) }, limit);
      return { ...page, next: page.next && { ...page.next, after: [profile ?? "", ...page.next.after] } };
    },
    data: request.data,
    meta: () => ({ ...request.meta, profile, profiles: choice.profiles }),
  });
}
