import type { CompareParams, DB } from "../../../lib/index.ts";
import { comparisonEntries, parseIds } from "../../../lib/queries/compare.ts";
import { JsonText } from "./json-text.ts";
import { type LatestScoreTexts, latestScoreTextsOf, scoreMembers } from "./latest-score-texts.ts";
import { listSlotsOf, type RankedRows, rankedRowsOf, scanDateAt, scanIdAt } from "./ranked-row-texts.ts";
import { slotOf } from "./text-column.ts";
import { type UniversityTexts, universityReferenceAt, universityTextsOf } from "./university-texts.ts";

/**
 * The HTTP fast path of `/compare`: the core's `compare`, its entries spliced from the table of latest scores, the
 * rankings' serialised rows (the scan date) and the list's rows (the university). Universities these do not hold
 * alike (unknown, or a write between the reads) or with a score that is not a tenth are read by the core, in one
 * statement, errors included. The bytes equal `JSON.stringify` of the core's answer (test/db/spliced-json.test.ts).
 */
export async function splicedCompare(db: DB, params: CompareParams): Promise<JsonText> {
  const ids = parseIds(params.ids);
  // One await after another: the values are held, and Promise.all costs more than the awaits (docs/performance.md).
  const rows = await rankedRowsOf(db);
  const table = await latestScoreTextsOf(db);
  const universities = await universityTextsOf(db);
  const sources: EntrySources = { rows, table, universities, listSlots: listSlotsOf(rows, universities) };
  const texts = ids.map((id) => entryText(sources, id));
  const others = ids.filter((_, i) => texts[i] === null);
  if (others.length > 0) {
    const entries = await comparisonEntries(db, others);
    let k = 0;
    texts.forEach((text, i) => {
      if (text === null) texts[i] = JSON.stringify(entries[k++]);
    });
  }
  return new JsonText(`[${texts.join(",")}]`);
}

interface EntrySources {
  rows: RankedRows;
  table: LatestScoreTexts;
  universities: UniversityTexts;
  /** `listSlotsOf(rows, universities)` */
  listSlots: Int32Array;
}

/** One university's entry, or null when the texts cannot make it. */
function entryText({ rows, table, universities, listSlots }: EntrySources, id: number): string | null {
  const scoreSlot = slotOf(table, id);
  if (scoreSlot < 0) return null;
  const slot = slotOf(rows, id);
  if (table.scanId[scoreSlot] === 0) {
    const listSlot = slotOf(universities, id);
    if (slot >= 0 || listSlot < 0) return null;
    return `{"university":{${universityReferenceAt(universities, listSlot)}},"scan_date":null,"scores":null}`;
  }
  const listSlot = slot < 0 ? -1 : (listSlots[slot] as number);
  if (listSlot < 0) return null;
  if (scanIdAt(rows, slot) !== table.scanId[scoreSlot]) return null;
  const scores = scoreMembers(table, scoreSlot);
  if (scores === null) return null;
  return `{"university":{${universityReferenceAt(universities, listSlot)}},${scanDateAt(rows, slot)},"scores":{${scores}}}`;
}
