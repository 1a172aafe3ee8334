import type { CompareParams, DB } from "../../../lib/index.ts";
import { comparisonEntries, parseIds } from "../../../lib/queries/compare.ts";
import { JsonText } from "./json-text.ts";
import { type LatestScoreTexts, latestScoreTextsOf, scoreMembers } from "./latest-score-texts.ts";
import { type RankedRows, rankedRowsOf, referenceAt, scanDateAt, scanIdAt } from "./ranked-row-texts.ts";
import { slotOf } from "./text-column.ts";
import { type UniversityTexts, universityReferenceAt, universityTextsOf } from "./university-texts.ts";

/**
 * The HTTP fast path of `/compare`: the core's `compare`, its entries spliced from the table of latest scores and,
 * for a scanned university, the rankings' serialised rows (the university, the scan date), for one never scanned
 * the list's row of it. Universities the two do
 * not hold alike (unknown, or a write between the two reads) or with a score that is not a tenth are read by the
 * core, in one statement, errors included. The bytes equal `JSON.stringify` of the core's answer
 * (test/db/spliced-json.test.ts).
 */
export async function splicedCompare(db: DB, params: CompareParams): Promise<JsonText> {
  const ids = parseIds(params.ids);
  const [rows, table, universities] = await Promise.all([
    rankedRowsOf(db),
    latestScoreTextsOf(db),
    universityTextsOf(db),
  ]);
  const texts = ids.map((id) => entryText(rows, table, universities, id));
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

/** One university's entry, or null when the texts cannot make it. */
function entryText(
  rows: RankedRows,
  table: LatestScoreTexts,
  universities: UniversityTexts,
  id: number,
): string | null {
  const scoreSlot = slotOf(table, id);
  if (scoreSlot < 0) return null;
  const slot = slotOf(rows, id);
  if (table.scanId[scoreSlot] === 0) {
    const textSlot = slotOf(universities, id);
    if (slot >= 0 || textSlot < 0) return null;
    return `{"university":{${universityReferenceAt(universities, textSlot)}},"scan_date":null,"scores":null}`;
  }
  if (slot < 0) return null;
  if (scanIdAt(rows, slot) !== table.scanId[scoreSlot]) return null;
  const scores = scoreMembers(table, scoreSlot);
  if (scores === null) return null;
  return `{"university":{${referenceAt(rows, slot)}},${scanDateAt(rows, slot)},"scores":{${scores}}}`;
}
