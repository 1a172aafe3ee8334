import type { LeaderboardParams } from "../params/operations.ts";
import type { DB } from "../schema/database.ts";
import { CATEGORIES, type Category } from "../scores/catalogue.ts";
import { isoDate } from "../time/format.ts";
import type { UniversityRef } from "./get-scan.ts";
import { prepared } from "./prepared.ts";
import { rankPage } from "./rank.ts";

/** Details of the ranked universities; one compiled statement per page length. */
const detailsQuery = prepared((db, arg: (i: number) => number, n) =>
  db
    .selectFrom("latest_scans as l")
    .innerJoin("universities as u", "u.id", "l.university_id")
    .select(["u.id", "u.domain", "u.name", "u.country", "l.scan_id", "l.completed_at"])
    .where(
      "l.university_id",
      "in",
      Array.from({ length: n }, (_, i) => arg(i)),
    ),
);

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

/**
 * Top universities of one category by the category's score in their latest completed scan: competition
 * rank (1, 2, 2, 4), ties by university id; universities whose score is not measured are absent.
 */
export async function leaderboard(
  db: DB,
  category: Category,
  params: LeaderboardParams = {},
): Promise<Leaderboard> {
  const { limit = 10 } = params;
  const score = CATEGORIES[category];
  const { rows, total } = await rankPage(db, { score, page: 1, limit });
  const meta = { category, score, limit, total };
  if (rows.length === 0) return { data: [], meta };
  const ids = rows.map((r) => r.university_id);
  const details = await detailsQuery(db, ids, ids.length);
  const byId = new Map(details.map((d) => [Number(d.id), d]));
  const data = rows.flatMap((r) => {
    const d = byId.get(r.university_id);
    if (!d) return [];
    return [
      {
        rank: r.rank,
        university: { id: r.university_id, domain: d.domain, name: d.name, country: d.country },
        score: r.score,
        scan_id: Number(d.scan_id),
        scan_date: isoDate(d.completed_at),
      },
    ];
  });
  return { data, meta };
}
