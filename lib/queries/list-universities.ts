import { prepared } from "../db/prepared.ts";
import type { ListUniversitiesParams } from "../params/operations.ts";
import type { DB } from "../schema/database.ts";
import { searchKey } from "../text/search-key.ts";
import { searchIndex, searchMatches, searchPage } from "./search-index.ts";
import { orderedPage, searchOrder } from "./search-orders.ts";
import { countAll, type Paged, pageOffset, toNumber, UNIVERSITY_COLUMNS, type University } from "./shapes.ts";

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

/** The universities of `ids`, in that order (an id without a university is left out). */
export async function universitiesByIds(db: DB, ids: readonly number[]): Promise<University[]> {
  if (ids.length === 0) return [];
  const rows = await byIdsQuery(db, ids, ids.length);
  const byId = new Map(rows.map((r) => [Number(r.id), r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** Universities, filtered by search and country, sorted, paged; ties broken by id so pages never overlap. */
export async function listUniversities(
  db: DB,
  params: ListUniversitiesParams = {},
): Promise<Paged<University>> {
  const { page = 1, limit = 20, search, country, sort = "name", order = "asc" } = params;
  if (search !== undefined) {
    // Matches from the in-memory search index: in the default order they come out sorted; in another, they are
    // put in the order the database gave the index's universities.
    const index = await searchIndex(db);
    const offset = pageOffset(page, limit) ?? Number.POSITIVE_INFINITY;
    const key = searchKey(search);
    const code = country?.toUpperCase();
    const { total, rows } =
      sort === "name" && order === "asc"
        ? searchPage(index, key, code, offset, limit)
        : orderedPage(
            searchMatches(index, key, code),
            await searchOrder(db, index, sort, order),
            offset,
            limit,
          );
    const data = await universitiesByIds(
      db,
      rows.map((row) => index.ids[row] as number),
    );
    return { data, meta: { page, limit, total } };
  }
  let q = db.selectFrom("universities");
  if (country !== undefined) q = q.where("country", "=", country.toUpperCase());
  const { total } = await q.select(countAll.as("total")).executeTakeFirstOrThrow();
  const offset = pageOffset(page, limit);
  const data =
    offset === null || offset >= toNumber(total)
      ? []
      : await q
          .select(UNIVERSITY_COLUMNS)
          .orderBy(sort, order)
          .orderBy("id", "asc")
          .limit(limit)
          .offset(offset)
          .execute();
  return { data, meta: { page, limit, total: toNumber(total) } };
}
