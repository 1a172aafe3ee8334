import type { DB, ListUniversitiesParams } from "../../../lib/index.ts";
import { universitiesByIds, universityPage } from "../../../lib/queries/list-universities.ts";
import { slotOf } from "./text-column.ts";
import { UniversityRowsJson, type UniversityTexts, universityTextsOf } from "./university-texts.ts";

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
): Promise<UniversityRowsJson> {
  const slots: number[] = [];
  const others: number[] = [];
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i] as number;
    const slot = slotOf(texts, id);
    slots.push(slot);
    if (slot < 0) others.push(id);
  }
  // Every row from the texts, as almost always: no second pass.
  if (others.length === 0) return new UniversityRowsJson(texts, slots);
  const read = new Map((await universitiesByIds(db, others)).map((u) => [Number(u.id), JSON.stringify(u)]));
  const kept: (number | string)[] = [];
  for (let i = 0; i < ids.length; i++) {
    const slot = slots[i] as number;
    const row = slot >= 0 ? slot : read.get(ids[i] as number);
    if (row !== undefined) kept.push(row);
  }
  return new UniversityRowsJson(texts, kept);
}
