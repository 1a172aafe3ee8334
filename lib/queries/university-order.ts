import { generationMemo } from "../db/generation-memo.ts";
import { inReadSnapshot } from "../db/read-snapshot.ts";
import type { DB } from "../schema/database.ts";

/**
 * Every university in (name, id) order, as the database orders names, with its country: kept per universities
 * generation (a new scan leaves it as it is), so a page of the universities list is a slice of it (no count, no
 * OFFSET walk). Two reads in one snapshot, each cheap (the name index covers the order; the countries come in
 * table order): about 200–300 ms at 100,000 universities, during which other requests wait. The search index is
 * built on this order.
 */
export interface UniversityOrder {
  ids: Int32Array;
  /** Each university's country, as an index into `countryNames`. */
  country: Uint16Array;
  countryNames: string[];
}

async function buildOrder(db: DB): Promise<UniversityOrder> {
  const [ordered, countries] = await inReadSnapshot(db, async (snapshot) => [
    await snapshot.selectFrom("universities").select("id").orderBy("name").orderBy("id").execute(),
    await snapshot.selectFrom("universities").select(["id", "country"]).execute(),
  ]);
  const codes = new Map<string, number>();
  const codeOfId = new Map<number, number>();
  for (const { id, country } of countries) {
    let code = codes.get(country);
    if (code === undefined) {
      code = codes.size;
      codes.set(country, code);
    }
    codeOfId.set(Number(id), code);
  }
  const ids = new Int32Array(ordered.length);
  const country = new Uint16Array(ordered.length);
  ordered.forEach(({ id }, i) => {
    ids[i] = Number(id);
    country[i] = codeOfId.get(Number(id)) ?? 0;
  });
  return { ids, country, countryNames: [...codes.keys()] };
}

const orderMemo = generationMemo((db) => buildOrder(db), { follows: "universities" });

/** The order of the current universities generation, built at most once per generation. */
export const universityOrder = (db: DB): Promise<UniversityOrder> => orderMemo(db, "");

/** The code of `country` in the order, or -1 when no university is in it. */
export const countryCode = (order: UniversityOrder, country: string): number =>
  order.countryNames.indexOf(country);

/** Positions (in (name, id) order) of the universities in `country`. */
export function rowsInCountry(order: UniversityOrder, country: string): number[] {
  const code = countryCode(order, country);
  const rows: number[] = [];
  if (code === -1) return rows;
  const countries = order.country;
  for (let i = 0; i < countries.length; i++) if (countries[i] === code) rows.push(i);
  return rows;
}
