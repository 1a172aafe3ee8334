import type { CompareParams, DB } from "../../../lib/index.ts";
import { comparisonEntries, parseIds } from "../../../lib/queries/compare.ts";
import { JsonText } from "./json-text.ts";
import { type LatestScoreTexts, latestScoreTextsOf, scoreMembers } from "./latest-score-texts.ts";
import { type RankedRows, rankedRowsOf, referenceAt, scanDateAt, scanIdAt } from "./ranked-row-texts.ts";
import { slotOf } from "./text-column.ts";
import { type UniversityTexts, universityReferenceAt, universityTextsOf } from "./university-texts.ts";

/**
 * The HTTP fast path of `/compare`: the core's `compare`, its entries spliced from the table of latest scores and,
 * for a scanned university, the rankings' serialised rows (the university, the scan date); for one never scanned,
 * from the list's row of it. Universities these do not hold alike (unknown, or a write between the reads) or with
 * a score that is not a tenth are read by the core, in one statement, errors included. The bytes equal
 * `JSON.stringify` of the core's answer (test/db/spliced-json.test.ts).
 */
export async function splicedCompare(db: DB, params: CompareParams): Promise<JsonText> {
  const ids = parseIds(params.ids);
  const [rows, table] = await Promise.all([rankedRowsOf(db), latestScoreTextsOf(db)]);
  const texts = ids.map((id) => scannedEntryText(rows, table, id));
  if (texts.includes(UNSCANNED)) {
    const universities = await universityTextsOf(db);
    texts.forEach((text, i) => {
      if (text === UNSCANNED) texts[i] = unscannedEntryText(universities, ids[i] as number);
    });
  }
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

/** What `scannedEntryText` gives a university the table holds as never scanned (and the rows do not hold). */
const UNSCANNED = "";

/** A scanned university's entry; `UNSCANNED`, or null when the texts cannot make it. */
function scannedEntryText(rows: RankedRows, table: LatestScoreTexts, id: number): string | null {
  const scoreSlot = slotOf(table, id);
  if (scoreSlot < 0) return null;
  const slot = slotOf(rows, id);
  if (table.scanId[scoreSlot] === 0) return slot < 0 ? UNSCANNED : null;
  if (slot < 0) return null;
  if (scanIdAt(rows, slot) !== table.scanId[scoreSlot]) return null;
  const scores = scoreMembers(table, scoreSlot);
  if (scores === null) return null;
  return `{"university":{${referenceAt(rows, slot)}},${scanDateAt(rows, slot)},"scores":{${scores}}}`;
}

/** A never-scanned university's entry, from the list's row of it; null when the list's rows do not hold it. */
function unscannedEntryText(universities: UniversityTexts, id: number): string | null {
  const slot = slotOf(universities, id);
  if (slot < 0) return null;
  return `{"university":{${universityReferenceAt(universities, slot)}},"scan_date":null,"scores":null}`;
}
