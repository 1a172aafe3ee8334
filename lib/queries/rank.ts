import { type ExpressionBuilder, sql } from "kysely";
import type { Database, DB } from "../schema/database.ts";
import type { RankedScoreName } from "../scores/catalogue.ts";
import { countAll, pageOffset, toNumber } from "./shapes.ts";

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

export async function rankPage(db: DB, q: RankQuery): Promise<{ rows: RankedRow[]; total: number }> {
  const col = q.score;
  const base = (eb: ExpressionBuilder<Database, "latest_scans">) => {
    const conds = [eb(col, "is not", null)];
    if (q.country !== undefined) conds.push(eb("country", "=", q.country));
    return eb.and(conds);
  };
  const windowed = (eb: ExpressionBuilder<Database, "latest_scans">) => {
    const conds = [base(eb)];
    if (q.min !== undefined) conds.push(eb(col, ">=", q.min));
    if (q.max !== undefined) conds.push(eb(col, "<=", q.max));
    return eb.and(conds);
  };
  const { total } = await db
    .selectFrom("latest_scans")
    .select(countAll.as("total"))
    .where(windowed)
    .executeTakeFirstOrThrow();
  const offset = pageOffset(q.page, q.limit);
  if (offset === null || offset >= toNumber(total)) return { rows: [], total: toNumber(total) };

  // Page of ids from the covering index alone; offset walks index entries, never joined rows.
  const page = await db
    .selectFrom("latest_scans")
    .select(["university_id", sql<number>`${sql.ref(col)}`.as("score")])
    .where(windowed)
    .orderBy(col, "desc")
    .orderBy("university_id", "asc")
    .limit(q.limit)
    .offset(offset)
    .execute();
  const first = page[0];
  if (!first) return { rows: [], total: toNumber(total) };

  // Position of the first row in the whole (unwindowed) ranking, and how many score strictly higher.
  const s0 = Number(first.score);
  const id0 = Number(first.university_id);
  const above = await db
    .selectFrom("latest_scans")
    .select([
      sql<number>`coalesce(sum(case when ${sql.ref(col)} > ${s0} then 1 else 0 end), 0)`.as("higher"),
      sql<number>`coalesce(sum(case when ${sql.ref(col)} = ${s0} and university_id < ${id0} then 1 else 0 end), 0)`.as(
        "tied_before",
      ),
    ])
    .where(base)
    .where(col, ">=", s0)
    .executeTakeFirstOrThrow();
  const position0 = toNumber(above.higher) + toNumber(above.tied_before);
  const rows: RankedRow[] = [];
  let rank = toNumber(above.higher) + 1;
  page.forEach((row, i) => {
    const score = Number(row.score);
    if (i > 0 && score !== rows[i - 1]?.score) rank = position0 + i + 1;
    rows.push({ rank, university_id: Number(row.university_id), score });
  });
  return { rows, total: toNumber(total) };
}
