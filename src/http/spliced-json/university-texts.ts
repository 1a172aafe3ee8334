import { generationMemo } from "../../../lib/db/generation-memo.ts";
import { keysetBatches } from "../../../lib/db/keyset-batches.ts";
import type { DB } from "../../../lib/index.ts";
import { universitiesAfter } from "../../../lib/queries/list-universities.ts";
import { room, type TextColumn, TextColumnBuilder, textAt } from "./text-column.ts";

/**
 * Every university as a row of the universities list, serialised once per universities generation (a new scan
 * leaves it as it is), so that a page of the list or of a search is spliced from texts instead of read from the
 * database per request.
 */
export interface UniversityTexts {
  /** University ids, ascending; a university's slot is its index here. */
  ids: Int32Array;
  /** `{"id":…,"domain":…,"name":…,"country":…,"created_at":…}`, as the core's row serialises. */
  row: TextColumn;
}

/** Universities read per statement. */
const RUN = 1024;

async function buildUniversityTexts(db: DB): Promise<UniversityTexts> {
  let ids = new Int32Array(1024);
  const row = new TextColumnBuilder();
  let count = 0;
  for await (const run of keysetBatches(RUN, (after) => universitiesAfter(db, after, RUN))) {
    ids = room(ids, count + run.length);
    for (const university of run) {
      ids[count] = Number(university.id);
      row.set(count++, JSON.stringify(university));
    }
  }
  return { ids: ids.slice(0, count), row: row.build(count) };
}

const universityTextsMemo = generationMemo((db) => buildUniversityTexts(db), { follows: "universities" });

/** Every university's row of the list, built at most once per universities generation. */
export const universityTextsOf = (db: DB): Promise<UniversityTexts> => universityTextsMemo(db, "");

/** A slot's row of the list, as the core serialises it. */
export const universityRowAt = (texts: UniversityTexts, slot: number): string => textAt(texts.row, slot);

/** `"id":…,"domain":…,"name":…`: a slot's row without its braces, its country and `created_at`. */
export function universityReferenceAt(texts: UniversityTexts, slot: number): string {
  const row = universityRowAt(texts, slot);
  // A quote inside a JSON string is escaped, so the last `,"country":` is the member's.
  return row.slice(1, row.lastIndexOf(',"country":'));
}
