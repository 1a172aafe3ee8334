import type { DB, ListUniversitiesParams } from "../../../lib/index.ts";
import { universitiesByIds, universityPage } from "../../../lib/queries/list-universities.ts";
import { JsonRows } from "./json-text.ts";
import { slotOf } from "./text-column.ts";
import { type UniversityTexts, universityRowAt, universityTextsOf } from "./university-texts.ts";

/**
 * The HTTP fast path of the universities list and its searches: the core's page (`universityPage`), its rows
 * spliced from the texts of every university (`universityTextsOf`). The texts are read after the page, so they are
 * at least as new as it, as the core's rows are; a university they do not hold (a write in between) is read by
 * the core. The bytes equal `JSON.stringify` of the core's answer (test/db/spliced-json.test.ts).
 */
export async function splicedUniversities(db: DB, params: ListUniversitiesParams = {}) {
  const { ids, meta } = await universityPage(db, params);
  return { data: await universityRowsJson(db, ids, await universityTextsOf(db)), meta };
}

/** The rows of the universities `ids` as the core's list serialises them: from `texts`, else read by the core. */
export async function universityRowsJson(
  db: DB,
  ids: readonly number[],
  texts: UniversityTexts,
): Promise<JsonRows> {
  const rows: (string | null)[] = new Array(ids.length);
  const others: number[] = [];
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i] as number;
    const slot = slotOf(texts, id);
    if (slot >= 0) rows[i] = universityRowAt(texts, slot);
    else {
      rows[i] = null;
      others.push(id);
    }
  }
  if (others.length > 0) {
    const read = new Map((await universitiesByIds(db, others)).map((u) => [Number(u.id), JSON.stringify(u)]));
    ids.forEach((id, i) => {
      if (rows[i] === null) rows[i] = read.get(id) ?? null;
    });
  }
  const kept = rows.filter((r): r is string => r !== null);
  return new JsonRows(kept);
}
