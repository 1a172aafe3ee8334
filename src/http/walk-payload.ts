import type { WalkPage, WalkStep } from "../../lib/queries/walk.ts";
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
