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

/** The `limit` matches from `offset` on in the order `order`. */
export function orderedPage(
  matches: readonly number[],
  order: SearchOrder,
  offset: number,
  limit: number,
): { total: number; rows: number[] } {
  const total = matches.length;
  const { rank } = order;
  const places = new Int32Array(total);
  for (let i = 0; i < total; i++) places[i] = rank[matches[i] as number] as number;
  return { total, rows: placedPage(order, places, offset, Math.min(total, offset + limit)) };
}

/** What a place costs sorted, and marked on a map of every place (which costs `MARKED_MAP` besides), in nanoseconds. */
const SORTED_PLACE = 18;
const MARKED_PLACE = 10;
const MARKED_MAP = 4_000;
/** What a place costs when only the page's least are kept (`leastPlaces`), for pages ending within `LEAST_MOST`. */
const LEAST_PLACE = 3;
const LEAST_MOST = 100;
/** Moves a place may cost `leastPlaces` on average before it gives up for the other ways. */
const LEAST_MOVES = 4;

/** What `placedPage` costs for `count` places and a page ending at `end`, in nanoseconds (docs/performance.md). */
export const placingCost = (count: number, end: number): number =>
  end <= LEAST_MOST ? count * LEAST_PLACE : Math.min(count * SORTED_PLACE, MARKED_MAP + count * MARKED_PLACE);

/**
 * The rows at the `offset`-th to the `end`-th (exclusive) least of `places`, a place given more than once counted
 * once: for a page ending within `LEAST_MOST`, the least kept as the places come (`leastPlaces`); otherwise, or
 * when that gives up, the places sorted (in place), or marked on a bit map of every place and read from its start
 * to the page's end, whichever costs less.
 */
export function placedPage(order: SearchOrder, places: Int32Array, offset: number, end: number): number[] {
  const rows: number[] = [];
  if (offset >= end) return rows;
  const least = end <= LEAST_MOST ? leastPlaces(places, end) : null;
  if (least !== null) {
    for (let i = Math.max(0, offset); i < least.length; i++)
      rows.push(order.rows[least[i] as number] as number);
    return rows;
  }
  const count = places.length;
  let seen = 0;
  if (count * SORTED_PLACE <= MARKED_MAP + count * MARKED_PLACE) {
    places.sort();
    let before = -1;
    for (let i = 0; i < count && seen < end; i++) {
      const place = places[i] as number;
      if (place === before) continue;
      before = place;
      if (seen >= offset) rows.push(order.rows[place] as number);
      seen++;
    }
    return rows;
  }
  const marks = new Int32Array((order.rows.length + 31) >>> 5);
  for (let i = 0; i < count; i++) {
    const place = places[i] as number;
    marks[place >>> 5] = (marks[place >>> 5] as number) | (1 << (place & 31));
  }
  for (let word = 0; word < marks.length && seen < end; word++) {
    let bits = marks[word] as number;
    while (bits !== 0 && seen < end) {
      const lowest = bits & -bits;
      bits ^= lowest;
      if (seen >= offset) rows.push(order.rows[(word << 5) + 31 - Math.clz32(lowest)] as number);
      seen++;
    }
  }
  return rows;
}

/**
 * The `end` least distinct places of `places` (fewer when there are fewer), ascending: each place is compared with
 * the largest kept and, when less, put in its place among them. Null when the places come in so nearly descending
 * an order that the moves pass `LEAST_MOVES` a place.
 */
function leastPlaces(places: Int32Array, end: number): Int32Array | null {
  const kept = new Int32Array(end);
  let n = 0;
  let moves = places.length * LEAST_MOVES;
  for (let i = 0; i < places.length; i++) {
    const place = places[i] as number;
    if (n === end && place >= (kept[end - 1] as number)) continue;
    let at = n;
    while (at > 0 && (kept[at - 1] as number) > place) at--;
    if (at > 0 && kept[at - 1] === place) continue;
    // When all `end` are kept, the largest makes room.
    const last = n < end ? n : end - 1;
    moves -= last - at;
    if (moves < 0) return null;
    for (let m = last; m > at; m--) kept[m] = kept[m - 1] as number;
    kept[at] = place;
    if (n < end) n++;
  }
  return n < end ? kept.subarray(0, n) : kept;
}
