import { sql } from "kysely";
import type { DB } from "../schema/database.ts";
import { firstAtLeast } from "../sorted/first-at-least.ts";
import { searchKey } from "../text/search-key.ts";
import { universitiesByIds } from "./list-universities.ts";
import { type SearchIndex, searchIndex, searchMatches } from "./search-index.ts";
import { countAll, toNumber, type University } from "./shapes.ts";
import { rowsInCountry, universityOrder } from "./university-order.ts";
import { type WalkPage, type WalkStep, walkPins } from "./walk.ts";

export interface UniversitiesWalkQuery {
  search?: string | undefined;
  country?: string | undefined;
}

/** The universities of a list in (name, id) order, and their positions in the order of every university. */
interface WalkOrder {
  key: string;
  ids: Int32Array;
  positions: Int32Array | null;
}

const pins = walkPins<WalkOrder>((o) => o.ids.byteLength + (o.positions?.byteLength ?? 0));

/** The current list, from every university's (name, id) order (the search index's for a search; per generation). */
async function currentOrder(db: DB, q: UniversitiesWalkQuery, key: string): Promise<WalkOrder> {
  const country = q.country?.toUpperCase();
  const index = q.search === undefined ? await universityOrder(db) : await searchIndex(db);
  if (q.search === undefined && country === undefined) return { key, ids: index.ids, positions: null };
  let positions: number[];
  if (q.search !== undefined) positions = searchMatches(index as SearchIndex, searchKey(q.search), country);
  else positions = rowsInCountry(index, country as string);
  return {
    key,
    ids: Int32Array.from(positions, (p) => index.ids[p] as number),
    positions: Int32Array.from(positions),
  };
}

/** Universities ordered at or before `(name, id)`: the position of the next one in the order of all of them. */
async function positionAfter(db: DB, after: readonly (string | number)[]): Promise<number> {
  const [name, id] = after as [string, number];
  const { n } = await db
    .selectFrom("universities")
    .select(countAll.as("n"))
    .where(sql<boolean>`(name < ${name} or (name = ${name} and id <= ${id}))`)
    .executeTakeFirstOrThrow();
  return toNumber(n);
}

/**
 * A page of universities (by name, ties by id; `search` and `country` as in `listUniversities`) walked by
 * cursor; `after` of a step is the last row's `[name, id]`.
 */
export async function walkUniversities(
  db: DB,
  q: UniversitiesWalkQuery,
  from: WalkStep | null,
  limit: number,
): Promise<WalkPage<University>> {
  const key = JSON.stringify([q.search ?? null, q.country?.toUpperCase() ?? null]);
  const resumed = await pins.resume(
    db,
    from,
    key,
    () => currentOrder(db, q, key),
    async (order, after) => {
      const p = await positionAfter(db, after);
      const positions = order.positions;
      return positions === null ? p : firstAtLeast(positions, p);
    },
  );
  const order = resumed.order;
  const offset = Math.min(resumed.offset, order.ids.length);
  const stop = Math.min(order.ids.length, offset + limit);
  const data = await universitiesByIds(db, Array.from(order.ids.subarray(offset, stop)));
  const last = data[data.length - 1];
  const next =
    stop < order.ids.length && last
      ? { snapshot: pins.pin(db, order), offset: stop, after: [last.name, Number(last.id)] }
      : null;
  return { data, total: order.ids.length, next };
}
