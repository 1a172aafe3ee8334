import type { DB } from "../schema/database.ts";
import { readGeneration } from "../write/generation.ts";

/**
 * The folded search text of every university in (name, id) order, joined into one string, kept per data
 * generation. A substring search is then one `indexOf` walk over a few megabytes instead of a LIKE over every
 * row of the table (twice: once to count, once for the page), and its matches come out already in the
 * default order of the universities list. Built by one ordered read of the table; rebuilt after any write.
 */
export interface SearchIndex {
  /** Every `search_text`, each followed by SEPARATOR. */
  text: string;
  /** Offset of each university's text in `text`, in (name, id) order. */
  starts: Int32Array;
  ids: Int32Array;
  countries: string[];
}

const SEPARATOR = "\u0000";
const memos = new WeakMap<DB, { generation: number; index: Promise<SearchIndex> }>();

async function buildIndex(db: DB): Promise<SearchIndex> {
  const rows = await db
    .selectFrom("universities")
    .select(["id", "country", "search_text"])
    .orderBy("name")
    .orderBy("id")
    .execute();
  const starts = new Int32Array(rows.length);
  const ids = new Int32Array(rows.length);
  const countries: string[] = new Array(rows.length);
  const parts: string[] = new Array(rows.length);
  let offset = 0;
  rows.forEach((r, i) => {
    const text = r.search_text.replaceAll(SEPARATOR, " ");
    starts[i] = offset;
    ids[i] = Number(r.id);
    countries[i] = r.country;
    parts[i] = text;
    offset += text.length + 1;
  });
  return { text: parts.join(SEPARATOR) + SEPARATOR, starts, ids, countries };
}

/** The index of the current data generation, built at most once per generation. */
export async function searchIndex(db: DB): Promise<SearchIndex> {
  // Read the generation before the data, so an index is never labelled newer than what it holds.
  const generation = await readGeneration(db);
  const memo = memos.get(db);
  if (memo && memo.generation === generation) return memo.index;
  const index = buildIndex(db);
  memos.set(db, { generation, index });
  index.catch(() => {
    if (memos.get(db)?.index === index) memos.delete(db);
  });
  return index;
}

/** Positions (in (name, id) order) of the universities whose search text contains `key`, optionally in `country`. */
export function searchMatches(index: SearchIndex, key: string, country?: string): number[] {
  const out: number[] = [];
  if (key.length === 0 || key.includes(SEPARATOR)) return out;
  const { text, starts, countries } = index;
  let row = 0;
  for (let p = text.indexOf(key); p !== -1; ) {
    while (row + 1 < starts.length && (starts[row + 1] as number) <= p) row++;
    if (country === undefined || countries[row] === country) out.push(row);
    const next = row + 1 < starts.length ? (starts[row + 1] as number) : text.length;
    p = text.indexOf(key, next);
  }
  return out;
}
