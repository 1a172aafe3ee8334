import { sql } from "kysely";
import type { RegressionsParams } from "../params/operations.ts";
import type { DB } from "../schema/database.ts";
import { dialectKind } from "../schema/dialect-kind.ts";
import { CATEGORIES, type Category } from "../scores/catalogue.ts";
import { type Clock, isoTimestamp, systemClock } from "../time/format.ts";
import type { UniversityRef } from "./get-scan.ts";
import { toNumber } from "./shapes.ts";

export interface ScanPoint {
  scan_id: number;
  completed_at: string;
  score: number;
}

export interface Regression {
  university: UniversityRef;
  category: Category;
  previous: ScanPoint;
  current: ScanPoint;
  /** `previous.score - current.score`, one decimal, always > 0. */
  drop: number;
}

export interface Regressions {
  data: Regression[];
  meta: {
    category: Category;
    score: string;
    days: number;
    min_drop: number;
    limit: number;
    /** Start of the window (`now - days`), inclusive. */
    since: string;
    /** Regressions found before `limit` was applied. */
    total: number;
  };
}

const DAY_MS = 86_400_000;

/**
 * Universities whose latest completed scan (completed at or after `now - days`) scores at least `min_drop`
 * points below their previous completed scan in the category's score, largest drop first, ties by
 * university id. "Latest" and "previous" follow the order of `latest_scans`: `completed_at`, then scan id.
 * A drop is measured to one decimal (as scores are shown) and must be positive, so `min_drop=0` lists every
 * decline but no unchanged score. When either scan did not measure the score, there is no drop to report and
 * the university is left out; a university with a single completed scan has no previous one and is left out.
 */
export async function regressions(
  db: DB,
  params: RegressionsParams = {},
  options: { clock?: Clock } = {},
): Promise<Regressions> {
  const { days = 30, min_drop = 5, category = "overall", limit = 20 } = params;
  const now = (options.clock ?? systemClock)();
  const since = isoTimestamp(new Date(now.getTime() - days * DAY_MS));
  const score = CATEGORIES[category];
  const cur = sql.ref(`l.${score}`);
  const prev = sql.ref(`l.prev_${score}`);
  // Rounded half away from zero on both: SQLite's round() on a double is trunc(x + 0.5) for x >= 0, while
  // PostgreSQL's round(double precision) rounds half to even; floor(x + 0.5) is SQLite's arithmetic exactly.
  const tenths = sql`(${prev} - ${cur}) * 10`;
  const dropTenths = dialectKind(db) === "postgres" ? sql`floor(${tenths} + 0.5)` : sql`round(${tenths})`;
  // Integer tenths compared with integer tenths: 5.0 is at least min_drop 5, whatever the float noise.
  const threshold = Math.max(1, Math.ceil(min_drop * 10 - 1e-9));

  // The previous completed scan is materialised on latest_scans (refreshLatest): one read over the
  // completed_at index, no per-row search of scans;
  // universities are joined to the page only.
  const rows = await sql<{
    university_id: number | string;
    domain: string;
    name: string;
    country: string;
    scan_id: number | string;
    completed_at: string;
    current_score: number | string;
    previous_id: number | string;
    previous_completed_at: string;
    previous_score: number | string;
    drop_tenths: number | string;
    total: number | string;
  }>`select r.*, u.domain, u.name, u.country
    from (
      select l.university_id, l.scan_id, l.completed_at, ${cur} as current_score,
        l.previous_scan_id as previous_id, l.previous_completed_at, ${prev} as previous_score,
        ${dropTenths} as drop_tenths, count(*) over () as total
      from latest_scans l
      where l.completed_at >= ${since}
        and l.previous_scan_id is not null
        and ${cur} is not null and ${prev} is not null
        and ${dropTenths} >= ${threshold}
      order by drop_tenths desc, l.university_id asc
      limit ${limit}) r
    join universities u on u.id = r.university_id
    order by r.drop_tenths desc, r.university_id asc`.execute(db);

  const data = rows.rows.map((r) => ({
    university: { id: Number(r.university_id), domain: r.domain, name: r.name, country: r.country },
    category,
    previous: {
      scan_id: Number(r.previous_id),
      completed_at: r.previous_completed_at,
      score: Number(r.previous_score),
    },
    current: { scan_id: Number(r.scan_id), completed_at: r.completed_at, score: Number(r.current_score) },
    drop: Number(r.drop_tenths) / 10,
  }));
  const total = rows.rows[0] ? toNumber(rows.rows[0].total) : 0;
  return { data, meta: { category, score, days, min_drop, limit, since, total } };
}
