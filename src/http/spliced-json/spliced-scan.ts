import { type DB, getScan, SCORE_NAMES } from "../../../lib/index.ts";
import { type ScanRow, scanRows } from "../../../lib/queries/get-scan.ts";
import { putTenthsCodes } from "../../../lib/scores/tenths.ts";
import { scoresWithin } from "./latest-score-texts.ts";
import { slotOf } from "./text-column.ts";
import { keptUniversityRefs, UniversityWithin, universityTextsOf } from "./university-texts.ts";

/** The codes of a completed scan's scores, in catalogue order; null when one is not a tenth (the core says it). */
export function scanScoreCodes(row: ScanRow): Uint16Array | null {
  const codes = new Uint16Array(SCORE_NAMES.length);
  return putTenthsCodes(row as Record<string, unknown>, SCORE_NAMES, codes, 0) ? codes : null;
}

/**
 * The HTTP fast path of v2 `/scans/{id}`: the core's `getScan`, its scan read by the core's statement and spliced
 * with the list's row of its university kept in memory, its scores written as digits from their codes. A scan
 * whose university the rows do not hold (a write in between) or with a score that is not a tenth, and an unknown
 * id, are answered by the core. The bytes equal `JSON.stringify` of the core's answer
 * (test/db/spliced-json.test.ts); why it exists is in docs/performance.md.
 */
export async function splicedScan(db: DB, id: number): Promise<unknown> {
  const texts = await universityTextsOf(db);
  const [row] = await scanRows(db, [id]);
  const slot = row === undefined ? -1 : slotOf(texts, Number(row.university_id));
  const codes = row === undefined || row.status !== "completed" ? null : scanScoreCodes(row);
  if (row === undefined || slot < 0 || (row.status === "completed" && codes === null)) {
    return getScan(db, id, keptUniversityRefs(db));
  }
  const after =
    `},"status":${JSON.stringify(row.status)}` +
    `,"started_at":${JSON.stringify(row.started_at ?? null)},"completed_at":${JSON.stringify(row.completed_at ?? null)}` +
    `,"profile":${JSON.stringify(row.profile)},"rubric_version":${row.rubric_version == null ? null : Number(row.rubric_version)},"scores":`;
  const before = `{"id":${Number(row.id)},"university":{`;
  const evidence = row.evidence == null ? "null" : JSON.stringify(JSON.parse(row.evidence));
  if (codes === null) {
    return new UniversityWithin(texts, slot, before, `${after}null,"evidence":${evidence}}`);
  }
  return scoresWithin(
    codes,
    0,
    new UniversityWithin(texts, slot, before, `${after}{`),
    `},"evidence":${evidence}}`,
  );
}
