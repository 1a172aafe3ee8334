import { generationMemo } from "../db/generation-memo.ts";
import type { DB } from "../schema/database.ts";
import { rankedIds } from "./rank.ts";
import { searchIndex } from "./search-index.ts";

export interface CountryCount {
  /** ISO 3166-1 alpha-2, upper case. */
  country: string;
  universities: number;
  /** Universities ranked by overall score (their latest completed scan measures it). */
  ranked: number;
}

/**
 * Counted from two in-memory structures other reads keep for the data generation anyway (the search index holds
 * every university's country, the overall ranking every ranked university), instead of a grouped join over
 * `latest_scans`, whose wide rows make it a read of seconds at 100,000 universities.
 */
async function count(db: DB): Promise<CountryCount[]> {
  const [index, ranked] = await Promise.all([searchIndex(db), rankedIds(db, "overall_score")]);
  const countryOf = new Map<number, string>();
  const counts = new Map<string, CountryCount>();
  index.ids.forEach((id, i) => {
    const country = index.countryNames[index.country[i] as number] ?? "";
    countryOf.set(id, country);
    const c = counts.get(country) ?? { country, universities: 0, ranked: 0 };
    c.universities += 1;
    counts.set(country, c);
  });
  for (const id of ranked) {
    const c = counts.get(countryOf.get(id) ?? "");
    if (c) c.ranked += 1;
  }
  return [...counts.values()].sort((a, b) => (a.country < b.country ? -1 : a.country > b.country ? 1 : 0));
}

const memo = generationMemo((db) => count(db));

/** Every country with universities, by code: how many, and how many are ranked. Built once per data generation. */
export const countryCounts = (db: DB): Promise<CountryCount[]> => memo(db, "");
