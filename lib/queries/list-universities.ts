import { prepared } from "../db/prepared.ts";
import type { ListUniversitiesParams } from "../params/operations.ts";
import type { DB } from "../schema/database.ts";
import { searchKey } from "../text/search-key.ts";
import {
  type SearchIndex,
  searchIndex,
  searchMatches,
  searchPage,
  searchPageInOrder,
} from "./search-index.ts";
import { orderedPage, searchOrder } from "./search-orders.ts";
import { type Paged, type PageMeta, pageOffset, UNIVERSITY_COLUMNS, type University } from "./shapes.ts";
import { rowsInCountry, type UniversityOrder, universityOrder } from "./university-order.ts";

/** Universities by id; one compiled statement per page length. */
const byIdsQuery = prepared((db, arg: (i: number) => number, n) =>
  db
    .selectFrom("universities")
    .select(UNIVERSITY_COLUMNS)
    .where(
      "id",
      "in",
      Array.from({ length: n }, (_, i) => arg(i)),
    ),
);

/** Universities with ids above `after`, ascending by id, at most `limit` (a walk of the table by its key). */
export async function universitiesAfter(db: DB, after: number, limit: number): Promise<University[]> {
  return (await db
    .selectFrom("universities")
    .select(UNIVERSITY_COLUMNS)
    .where("id", ">", after)
    .orderBy("id")
    .limit(limit)
    .execute()) as University[];
}

/** The universities of `ids`, in that order (an id without a university is left out). */
export async function universitiesByIds(db: DB, ids: readonly number[]): Promise<University[]> {
  if (ids.length === 0) return [];
  const rows = await byIdsQuery(db, ids, ids.length);
  const byId = new Map(rows.map((r) => [Number(r.id), r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/**
 * Universities, filtered by search and country, sorted, paged; ties broken by id so pages never overlap. Served
 * from every university's (name, id) order kept per universities generation (`universityOrder`, or the search
 * index for a search): in that order a page is a slice of it (or of its matches); in another, the rows are put in the order
 * the database gave those universities (`searchOrder`). No count and no OFFSET walk per request.
 */
export async function listUniversities(
  db: DB,
  params: ListUniversitiesParams = {},
): Promise<Paged<University>> {
  const { ids, meta } = await universityPage(db, params);
  return { data: await universitiesByIds(db, ids), meta };
}

/** Which universities a page of `listUniversities` holds, in its order, and its meta: the page without its rows. */
export async function universityPage(
  db: DB,
  params: ListUniversitiesParams = {},
): Promise<{ ids: number[]; meta: PageMeta }> {
  const { page = 1, limit = 20, search, country, sort = "name", order = "asc" } = params;
  const offset = pageOffset(page, limit) ?? Number.POSITIVE_INFINITY;
  const code = country?.toUpperCase();
  const byName = sort === "name" && order === "asc";
  // Searches need the index (folded texts, their suffix order); plain lists only the order it shares.
  const index: UniversityOrder = search !== undefined ? await searchIndex(db) : await universityOrder(db);
  const sorted = async (matches: readonly number[]) =>
    orderedPage(matches, await searchOrder(db, index, sort, order), offset, limit);
  let found: { total: number; rows: readonly number[] };
  if (search !== undefined) {
    const key = searchKey(search);
    if (byName) found = searchPage(index as SearchIndex, key, code, offset, limit);
    else {
      const placed = await searchOrder(db, index, sort, order);
      found =
        (code === undefined ? searchPageInOrder(index as SearchIndex, key, placed, offset, limit) : null) ??
        orderedPage(searchMatches(index as SearchIndex, key, code), placed, offset, limit);
    }
  } else if (code !== undefined) {
    const matches = rowsInCountry(index, code);
    found = byName
      ? { total: matches.length, rows: matches.slice(offset, offset + limit) }
      : await sorted(matches);
  } else {
    // Every university: a range of places in the order.
    const total = index.ids.length;
    const end = Math.min(total, offset + limit);
    const places = offset < end ? Array.from({ length: end - offset }, (_, i) => offset + i) : [];
    const rowAt = byName ? null : (await searchOrder(db, index, sort, order)).rows;
    found = { total, rows: rowAt === null ? places : places.map((p) => rowAt[p] as number) };
  }
  return {
    ids: found.rows.map((row) => index.ids[row] as number),
    meta: { page, limit, total: found.total },
  };
}
