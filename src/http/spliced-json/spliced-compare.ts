import { type CompareParams, type DB, isoDate } from "../../../lib/index.ts";
import { comparisonEntries, parseIds } from "../../../lib/queries/compare.ts";
import { JsonText } from "./json-text.ts";
import { type LatestScoreTexts, latestScoreTextsOf, scoreMembers } from "./latest-score-texts.ts";
import { slotOf, textAt, textHead } from "./text-column.ts";
import { type UniversityTexts, universityReferenceAt, universityTextsOf } from "./university-texts.ts";

/**
 * The HTTP fast path of `/compare`: the core's `compare`, its entries spliced from the table of latest scores (the
 * scan's date and scores) and the list's rows (the university). Universities these do not hold (unknown, or added
 * between the reads) or with a score that is not a tenth are read by the core, in one statement, errors included.
 * The bytes equal `JSON.stringify` of the core's answer (test/db/spliced-json.test.ts).
 */
export async function splicedCompare(db: DB, params: CompareParams): Promise<JsonText> {
  const ids = parseIds(params.ids);
  // One await after another: the values are held, and Promise.all costs more than the awaits (docs/performance.md).
  const table = await latestScoreTextsOf(db);
  const universities = await universityTextsOf(db);
  const texts = ids.map((id) => entryText(table, universities, id));
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
function entryText(table: LatestScoreTexts, universities: UniversityTexts, id: number): string | null {
  const scoreSlot = slotOf(table, id);
  const listSlot = slotOf(universities, id);
  if (scoreSlot < 0 || listSlot < 0) return null;
  const university = universityReferenceAt(universities, listSlot);
  if (table.scanId[scoreSlot] === 0) return `{"university":{${university}},"scan_date":null,"scores":null}`;
  const date = scanDateMember(table, scoreSlot);
  const scores = scoreMembers(table, scoreSlot);
  if (date === null || scores === null) return null;
  return `{"university":{${university}},${date},"scores":{${scores}}}`;
}

/** The quote and first ten characters of a JSON string whose first ten are written as they are. */
const PLAIN_DATE = /^"[^"\\]{9}[^"\\\ud800-\udbff]$/;

/**
 * `"scan_date":"YYYY-MM-DD"`: the core's `isoDate` of a slot's `completed_at`. The JSON text's first eleven
 * characters are the date as JSON without its closing quote, unless an escape or a cut surrogate pair lies within
 * them; null where `completed_at` is not a text (the core answers).
 */
function scanDateMember(table: LatestScoreTexts, slot: number): string | null {
  const head = textHead(table.completedAt, slot, 11);
  if (PLAIN_DATE.test(head)) return `"scan_date":${head}"`;
  const completedAt: unknown = JSON.parse(textAt(table.completedAt, slot));
  return typeof completedAt === "string" ? `"scan_date":${JSON.stringify(isoDate(completedAt))}` : null;
}
