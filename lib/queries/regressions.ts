import { sql } from "kysely";
import { capabilitiesOf } from "../db/capabilities.ts";
import { generationMemo } from "../db/generation-memo.ts";
import { prepared } from "../db/prepared.ts";
import type { RegressionsParams } from "../params/operations.ts";
import type { DB } from "../schema/database.ts";
import { CATEGORIES, CATEGORY_NAMES, type Category } from "../scores/catalogue.ts";
import { PROFILE_BOUND_SCORES } from "../scores/profile.ts";
import { type Clock, isoTimestamp, systemClock } from "../time/format.ts";
import type { UniversityRef } from "./get-scan.ts";
import { patchByValue, patchedLength, type ValueEntry } from "./patch-runs.ts";

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
 * Every university whose latest completed scan scores below its previous one in a category, largest drop first
 * (in integer tenths), ties by university id, with the latest scan's `completed_at`: read once per data
 * generation and category (one pass over `latest_scans`, where the previous scan is materialised), so a request
 * costs a walk over the declines and one read of its page.
 */
export interface Declines {
  ids: Int32Array;
  drops: Int32Array;
  /** The latest scan's `completed_at`, in milliseconds since the epoch. */
  completed: Float64Array;
  /** For a prefix length, the `completed` of that prefix in ascending order; made on first use, a few kept. */
  sortedPrefixes: Map<number, Float64Array>;
  /** The rows read for this generation's pages, by university id, without their drop; up to `ROWS_KEPT`. */
  rows: Map<number, RegressionScans>;
}

/** What a regression row shows besides its category and drop: the university and its two scans. */
type RegressionScans = Pick<Regression, "university" | "previous" | "current">;

/** Rows a category's declines keep: fifty pages of the default length (their size in docs/performance.md). */
const ROWS_KEPT = 1_024;

const SORTED_PREFIXES_KEPT = 8;

/** How many of the first `end` declines completed at or after `sinceMs`: a binary search in the sorted prefix. */
export function countSince(declines: Declines, end: number, sinceMs: number): number {
  let sorted = declines.sortedPrefixes.get(end);
  if (!sorted) {
    sorted = declines.completed.slice(0, end).sort();
    if (declines.sortedPrefixes.size >= SORTED_PREFIXES_KEPT) {
      declines.sortedPrefixes.delete(declines.sortedPrefixes.keys().next().value as number);
    }
    declines.sortedPrefixes.set(end, sorted);
  }
  let lo = 0;
  for (let hi = sorted.length; lo < hi; ) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as number) < sinceMs) lo = mid + 1;
    else hi = mid;
  }
  return sorted.length - lo;
}

/** The declines of a category as rows, largest drop first, ties by id; of the universities `ids` only, if given. */
async function declineRows(db: DB, category: string, ids?: readonly number[]) {
  const score = CATEGORIES[category as Category];
  const cur = sql.ref(`l.${score}`);
  const prev = sql.ref(`l.prev_${score}`);
  // Rounded half away from zero on both: SQLite's round() on a double is trunc(x + 0.5) for x >= 0, while
  // PostgreSQL's round(double precision) rounds half to even; floor(x + 0.5) is SQLite's arithmetic exactly.
  const tenths = sql`(${prev} - ${cur}) * 10`;
  const dropTenths = capabilitiesOf(db).roundsHalfAway ? sql`round(${tenths})` : sql`floor(${tenths} + 0.5)`;
  const rows = await sql<{
    university_id: number | string;
    completed_at: string;
    drop_tenths: number | string;
  }>`
    select l.university_id, l.completed_at, ${dropTenths} as drop_tenths
    from latest_scans l
    where l.previous_scan_id is not null and ${cur} is not null and ${prev} is not null and ${dropTenths} >= 1
      ${PROFILE_BOUND_SCORES.has(score) ? sql`and l.profile = l.prev_profile` : sql``}
      ${ids ? sql`and l.university_id in (${sql.join(ids)})` : sql``}
    order by drop_tenths desc, l.university_id asc`.execute(db);
  return rows.rows.map((r) => {
    const ms = Date.parse(r.completed_at);
    return {
      id: Number(r.university_id),
      drop: Number(r.drop_tenths),
      completed: Number.isNaN(ms) ? Number.NEGATIVE_INFINITY : ms,
    };
  });
}

function emptyDeclines(n: number): Declines {
  return {
    ids: new Int32Array(n),
    drops: new Int32Array(n),
    completed: new Float64Array(n),
    sortedPrefixes: new Map(),
    rows: new Map(),
  };
}

async function buildDeclines(db: DB, category: string): Promise<Declines> {
  const rows = await declineRows(db, category);
  const declines = emptyDeclines(rows.length);
  rows.forEach((r, i) => {
    declines.ids[i] = r.id;
    declines.drops[i] = r.drop;
    declines.completed[i] = r.completed;
  });
  return declines;
}

/**
 * The declines of an earlier generation brought up to date: those of the `changed` universities are read again
 * and merged in, the others copied. The same arrays as a build (tested against one).
 */
async function patchDeclines(
  db: DB,
  category: string,
  old: Declines,
  changed: ReadonlySet<number>,
): Promise<Declines> {
  const rows = await declineRows(db, category, [...changed]);
  const completedOf = new Map(rows.map((r) => [r.id, r.completed]));
  const added = rows.map((r) => ({ id: r.id, value: r.drop }));
  const runs = patchByValue(old.drops, old.ids, changed, added);
  const next = emptyDeclines(patchedLength(runs));
  for (const run of runs) {
    if ("added" in run) {
      const e = added[run.added] as ValueEntry;
      next.ids[run.out] = e.id;
      next.drops[run.out] = e.value;
      next.completed[run.out] = completedOf.get(e.id) as number;
    } else {
      next.ids.set(old.ids.subarray(run.from, run.to), run.out);
      next.drops.set(old.drops.subarray(run.from, run.to), run.out);
      next.completed.set(old.completed.subarray(run.from, run.to), run.out);
    }
  }
  for (const [id, row] of old.rows) if (!changed.has(id)) next.rows.set(id, row);
  return next;
}

/** Per data generation and category; after a write of scans, patched with the universities it changed. */
export const declinesOf = generationMemo(buildDeclines, {
  weight: (d) => d.ids.length,
  maxWeight: 1_000_000,
  patch: patchDeclines,
});

const categoryIndex = (category: Category) => CATEGORY_NAMES.indexOf(category);

/** The latest and previous scans of a page of universities; one compiled statement per length and category. */
const detailsQuery = prepared((db, arg: (i: number) => number, variant) => {
  const score = CATEGORIES[CATEGORY_NAMES[variant % CATEGORY_NAMES.length] as Category];
  const n = Math.floor(variant / CATEGORY_NAMES.length);
  return db
    .selectFrom("latest_scans as l")
    .innerJoin("universities as u", "u.id", "l.university_id")
    .select([
      "l.university_id",
      "l.scan_id",
      "l.completed_at",
      "l.previous_scan_id",
      "l.previous_completed_at",
      sql<number>`${sql.ref(`l.${score}`)}`.as("current_score"),
      sql<number>`${sql.ref(`l.prev_${score}`)}`.as("previous_score"),
      "u.domain",
      "u.name",
      "u.country",
    ])
    .where(
      "l.university_id",
      "in",
      Array.from({ length: n }, (_, i) => arg(i)),
    );
});

/** The university and scans of each of `ids` read from the database, by id; one that has no latest scan is left out. */
async function readRegressionScans(
  db: DB,
  category: Category,
  ids: readonly number[],
): Promise<Map<number, RegressionScans>> {
  const details =
    ids.length === 0
      ? []
      : await detailsQuery(db, ids, ids.length * CATEGORY_NAMES.length + categoryIndex(category));
  const out = new Map<number, RegressionScans>();
  for (const r of details) {
    // Frozen: kept rows are shared by every answer that shows them.
    out.set(Number(r.university_id), {
      university: Object.freeze({
        id: Number(r.university_id),
        domain: r.domain,
        name: r.name,
        country: r.country,
      }),
      previous: Object.freeze({
        scan_id: Number(r.previous_scan_id),
        completed_at: r.previous_completed_at as string,
        score: Number(r.previous_score),
      }),
      current: Object.freeze({
        scan_id: Number(r.scan_id),
        completed_at: r.completed_at,
        score: Number(r.current_score),
      }),
    });
  }
  return out;
}

/**
 * The regressions of the universities `ids` in that order, with their drops in tenths (`drops`); a university whose
 * latest scan vanished meanwhile is left out. Rows are kept with `declines`, the category's of the current
 * generation (a write of scans drops those of the universities it changed), so a page asked again reads nothing.
 */
export async function regressionRows(
  db: DB,
  category: Category,
  declines: Declines,
  ids: readonly number[],
  drops: readonly number[],
): Promise<Regression[]> {
  const kept = declines.rows;
  const missing = ids.filter((id) => !kept.has(id));
  const read = await readRegressionScans(db, category, missing);
  for (const [id, row] of read) if (kept.size < ROWS_KEPT) kept.set(id, row);
  return ids.flatMap((id, i) => {
    const r = kept.get(id) ?? read.get(id);
    if (!r) return [];
    return [
      {
        university: r.university,
        category,
        previous: r.previous,
        current: r.current,
        drop: (drops[i] as number) / 10,
      },
    ];
  });
}

/** The window's start and the drop threshold in tenths of the parameters of a regressions list. */
export function regressionsWindow(
  days: number,
  minDrop: number,
  now: Date,
): { since: string; threshold: number } {
  return {
    since: isoTimestamp(new Date(now.getTime() - days * DAY_MS)),
    // Integer tenths compared with integer tenths: 5.0 is at least min_drop 5, whatever the float noise.
    threshold: Math.max(1, Math.ceil(minDrop * 10 - 1e-9)),
  };
}

/**
 * Universities whose latest completed scan (completed at or after `now - days`) scores at least `min_drop`
 * points below their previous completed scan in the category's score, largest drop first, ties by
 * university id. "Latest" and "previous" follow the order of `latest_scans`: `completed_at`, then scan id.
 * A drop is measured to one decimal (as scores are shown) and must be positive, so `min_drop=0` lists every
 * decline but no unchanged score. When either scan did not measure the score, there is no drop to report and
 * the university is left out; a university with a single completed scan has no previous one and is left out.
 * Overall and the composites compare like with like: two scans of different profiles are left out.
 */
export async function regressions(
  db: DB,
  params: RegressionsParams = {},
  options: { clock?: Clock } = {},
): Promise<Regressions> {
  const { days = 30, min_drop = 5, category = "overall", limit = 20 } = params;
  const { since, threshold } = regressionsWindow(days, min_drop, (options.clock ?? systemClock)());
  const score = CATEGORIES[category];
  const declines = await declinesOf(db, category);
  // Drops are in descending order: those large enough are a prefix; the window filters it.
  let end = 0;
  for (let hi = declines.drops.length; end < hi; ) {
    const mid = (end + hi) >>> 1;
    if ((declines.drops[mid] as number) >= threshold) end = mid + 1;
    else hi = mid;
  }
  const sinceMs = Date.parse(since);
  const total = countSince(declines, end, sinceMs);
  const picked: number[] = [];
  for (let i = 0; i < end && picked.length < Math.min(limit, total); i++) {
    if ((declines.completed[i] as number) >= sinceMs) picked.push(i);
  }
  const data = await regressionRows(
    db,
    category,
    declines,
    picked.map((i) => declines.ids[i] as number),
    picked.map((i) => declines.drops[i] as number),
  );
  return { data, meta: { category, score, days, min_drop, limit, since, total } };
}
