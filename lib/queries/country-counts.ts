import { generationMemo } from "../db/generation-memo.ts";
import type { DB } from "../schema/database.ts";
import { rankedIds } from "./rank.ts";
import { universityOrder } from "./university-order.ts";

export interface CountryCount {
  /** ISO 3166-1 alpha-2, upper case. */
  country: string;
  universities: number;
  /** Universities ranked by overall score (their latest completed scan measures it). */
  ranked: number;
}

/** Each university's country code (an index into the universities' order's `countryNames`), by id. */
interface CountryLookup {
  countryNames: string[];
  /** By id where ids are dense enough (`NONE` where no university has that id); else by a map. */
  byId: Uint16Array | Map<number, number>;
  /** Universities per country code. */
  universities: Int32Array;
}

const NONE = 0xffff;

/** Built from the universities' order once per universities generation: a scan leaves every university's country. */
const lookupMemo = generationMemo(
  async (db: DB): Promise<CountryLookup> => {
    const index = await universityOrder(db);
    const universities = new Int32Array(index.countryNames.length);
    let maxId = 0;
    for (const id of index.ids) maxId = Math.max(maxId, id);
    const dense = maxId <= 4 * index.ids.length + 1024 && index.countryNames.length < NONE;
    const byId = dense ? new Uint16Array(maxId + 1).fill(NONE) : new Map<number, number>();
    index.ids.forEach((id, i) => {
      const code = index.country[i] as number;
      universities[code] = (universities[code] as number) + 1;
      if (byId instanceof Map) byId.set(id, code);
      else byId[id] = code;
    });
    return { countryNames: index.countryNames, byId, universities };
  },
  { follows: "universities" },
);

/**
 * Counted from two in-memory structures other reads keep anyway (the universities' order holds every university's
 * country, the overall ranking every ranked university), instead of a grouped join over `latest_scans`, whose wide
 * rows make it a read of seconds at 100,000 universities. Only the ranked count is done again after a scan.
 */
async function count(db: DB): Promise<CountryCount[]> {
  const [lookup, ranked] = await Promise.all([lookupMemo(db, ""), rankedIds(db, "overall_score")]);
  const rankedPerCode = new Int32Array(lookup.countryNames.length);
  const { byId } = lookup;
  for (const id of ranked) {
    const code = byId instanceof Map ? byId.get(id) : byId[id];
    if (code !== undefined && code !== NONE) rankedPerCode[code] = (rankedPerCode[code] as number) + 1;
  }
  const counts: CountryCount[] = [];
  lookup.universities.forEach((universities, code) => {
    if (universities > 0)
      counts.push({
        country: lookup.countryNames[code] ?? "",
        universities,
        ranked: rankedPerCode[code] as number,
      });
  });
  return counts.sort((a, b) => (a.country < b.country ? -1 : a.country > b.country ? 1 : 0));
}

const memo = generationMemo((db) => count(db));

/** Every country with universities, by code: how many, and how many are ranked. Built once per data generation. */
export const countryCounts = (db: DB): Promise<CountryCount[]> => memo(db, "");
