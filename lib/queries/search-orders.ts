import type { UNIVERSITY_SORTS } from "../params/operations.ts";
import type { DB } from "../schema/database.ts";
import type { UniversityOrder } from "./university-order.ts";

type UniversitySort = (typeof UNIVERSITY_SORTS)[number];

/**
 * The universities of a (name, id) order (`UniversityOrder`, or the search index built on one) in another order of the list (`sort`, `order`, ties by id ascending), as
 * the database orders them (its collation decides, as for the SQL list): read once per index and order, so a
 * search sorted by domain, country, creation time or name descending is the index's matches put in that order,
 * not a LIKE over the table.
 */
export interface SearchOrder {
  /** `rank[row]`: the place of the index's row `row` in this order. */
  rank: Int32Array;
  /** `rows[place]`: the index's row at that place. */
  rows: Int32Array;
}

const orders = new WeakMap<UniversityOrder, Map<string, Promise<SearchOrder>>>();

/** The order `sort`/`order` of the rows of `index`, read once per index (a universities generation) and order. */
export function searchOrder(
  db: DB,
  index: UniversityOrder,
  sort: UniversitySort,
  order: "asc" | "desc",
): Promise<SearchOrder> {
  let byOrder = orders.get(index);
  if (!byOrder) {
    byOrder = new Map();
    orders.set(index, byOrder);
  }
  const key = `${sort} ${order}`;
  let held = byOrder.get(key);
  if (!held) {
    held = buildOrder(db, index, sort, order);
    byOrder.set(key, held);
    // A failed read is forgotten.
    held.catch(() => byOrder.delete(key));
  }
  return held;
}

async function buildOrder(
  db: DB,
  index: UniversityOrder,
  sort: UniversitySort,
  order: "asc" | "desc",
): Promise<SearchOrder> {
  const ordered = await db
    .selectFrom("universities")
    .select("id")
    .orderBy(sort, order)
    .orderBy("id", "asc")
    .execute();
  const n = index.ids.length;
  const rowOfId = new Map<number, number>();
  for (let row = 0; row < n; row++) rowOfId.set(index.ids[row] as number, row);
  const rank = new Int32Array(n).fill(-1);
  const rows = new Int32Array(n);
  let place = 0;
  for (const { id } of ordered) {
    const row = rowOfId.get(Number(id));
    if (row === undefined || rank[row] !== -1) continue;
    rank[row] = place;
    rows[place++] = row;
  }
  // A write between the index's read and this one: rows the read did not see go last (the next generation
  // rebuilds both).
  for (let row = 0; row < n && place < n; row++) {
    if (rank[row] !== -1) continue;
    rank[row] = place;
    rows[place++] = row;
  }
  return { rank, rows };
}

/**
 * The `limit` matches from `offset` on in the order `order`: a few matches are sorted by their places; many are
 * marked and the order walked until the page is found.
 */
export function orderedPage(
  matches: readonly number[],
  order: SearchOrder,
  offset: number,
  limit: number,
): { total: number; rows: number[] } {
  const total = matches.length;
  const end = Math.min(total, offset + limit);
  if (offset >= end) return { total, rows: [] };
  const n = order.rank.length;
  if (total * 16 < n) {
    const places = Int32Array.from(matches, (row) => order.rank[row] as number).sort();
    return { total, rows: Array.from(places.subarray(offset, end), (place) => order.rows[place] as number) };
  }
  const matched = new Uint8Array(n);
  for (const row of matches) matched[row] = 1;
  const rows: number[] = [];
  let seen = 0;
  for (let place = 0; place < n && seen < end; place++) {
    const row = order.rows[place] as number;
    if (matched[row] === 0) continue;
    if (seen >= offset) rows.push(row);
    seen++;
  }
  return { total, rows };
}
