import { sql } from "kysely";
import type { ListUniversitiesParams } from "../params/operations.ts";
import type { DB } from "../schema/database.ts";
import { escapeLike, searchKey } from "../text/search-key.ts";
import { countAll, type Paged, pageOffset, toNumber, UNIVERSITY_COLUMNS, type University } from "./shapes.ts";

/** Universities, filtered by search and country, sorted, paged; ties broken by id so pages never overlap. */
export async function listUniversities(
  db: DB,
  params: ListUniversitiesParams = {},
): Promise<Paged<University>> {
  const { page = 1, limit = 20, search, country, sort = "name", order = "asc" } = params;
  let q = db.selectFrom("universities");
  if (search !== undefined) {
    q = q.where(sql<boolean>`search_text like ${`%${escapeLike(searchKey(search))}%`} escape '\\'`);
  }
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
