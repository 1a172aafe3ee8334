import { type DB, getUniversity, universityRanking, universityScores } from "../../../lib/index.ts";
import { rankingByProfile } from "../../../lib/queries/university-ranking.ts";
import { utf8Write } from "./answer-body.ts";
import { JsonWriter } from "./json-text.ts";
import { latestScanOf, latestScoresWriter, latestScoreTextsOf } from "./latest-score-texts.ts";
import { type RankedRows, rankedRowsOf, scanIdAt } from "./ranked-row-texts.ts";
import { slotOf } from "./text-column.ts";
import {
  type UniversityTexts,
  universityCountryAt,
  universityRowAt,
  universityRowBytes,
  universityTextsOf,
  writeUniversityRow,
} from "./university-texts.ts";

/**
 * `{"id":…,"domain":…,"name":…,"country":…,"created_at":…,"scan_count":…` and `rest`: the list's row, its bytes
 * copied as they are but its closing brace, the scan count the rankings keep (0 for a university not among the
 * rankings' rows, which has no completed scan: `slot` -1) and `rest`, which closes the object.
 */
class UniversityJson extends JsonWriter {
  readonly #after: string;
  #text: string | undefined;
  constructor(
    private readonly texts: UniversityTexts,
    private readonly textSlot: number,
    rows: RankedRows,
    slot: number,
    rest: string,
  ) {
    super();
    this.#after = `,"scan_count":${slot < 0 ? 0 : rows.scanCount[slot]}${rest}`;
  }
  get room(): number {
    return universityRowBytes(this.texts, this.textSlot) + this.#after.length * 3;
  }
  write(out: Buffer, at: number): number {
    const end = writeUniversityRow(this.texts, this.textSlot, out, at, 1);
    return end + utf8Write(out, this.#after, end);
  }
  get text(): string {
    this.#text ??= `${universityRowAt(this.texts, this.textSlot).slice(0, -1)}${this.#after}`;
    return this.#text;
  }
}

/**
 * The HTTP fast path of v1 `/universities/{id}`: the core's `getUniversity` without its latest scan, spliced from
 * the list's row of the university and the scan count the rankings keep (none for a university they do not hold),
 * both made once per generation instead of read from the database per request. An id the list does not hold is
 * read as before, for the core's error. The bytes equal `JSON.stringify` of the core's answer
 * (test/db/spliced-json.test.ts); why it exists is in docs/performance.md.
 */
export async function splicedUniversity(db: DB, id: number): Promise<unknown> {
  const rows = await rankedRowsOf(db);
  const texts = await universityTextsOf(db);
  const textSlot = slotOf(texts, id);
  if (textSlot < 0) {
    const { latest_scan: _, ...university } = await getUniversity(db, id);
    return university;
  }
  return new UniversityJson(texts, textSlot, rows, slotOf(rows, id), "}");
}

/**
 * The HTTP fast path of v2 `/universities/{id}`: the core's `getUniversity` with `universityRanking`, the university
 * as v1's, its latest scan and profile from the table of latest scores, its ranking from the in-memory rankings; an
 * unscanned university (in neither) with no latest scan and no ranking. A university these do not hold alike
 * (unknown, a write between the reads, a score that is not a tenth) is read by the core.
 */
export async function splicedUniversityWithRanking(db: DB, id: number): Promise<unknown> {
  const rows = await rankedRowsOf(db);
  const table = await latestScoreTextsOf(db);
  const texts = await universityTextsOf(db);
  const slot = slotOf(rows, id);
  const scoreSlot = slotOf(table, id);
  const textSlot = slotOf(texts, id);
  // Neither the rankings' rows nor the table of latest scores have a scan of it: no completed scan, no ranking.
  if (textSlot >= 0 && slot < 0 && (scoreSlot < 0 || table.scanId[scoreSlot] === 0)) {
    return new UniversityJson(texts, textSlot, rows, slot, ',"latest_scan":null,"ranking":null}');
  }
  const latest = slot < 0 || scoreSlot < 0 || textSlot < 0 ? null : latestScanOf(table, scoreSlot);
  if (latest === null || scanIdAt(rows, slot) !== table.scanId[scoreSlot]) {
    const university = await getUniversity(db, id);
    return { ...university, ranking: await universityRanking(db, university) };
  }
  const country = universityCountryAt(texts, textSlot);
  const ranking =
    latest.overallScore === null
      ? null
      : await rankingByProfile(db, id, country, latest.overallScore, latest.profile);
  return new UniversityJson(
    texts,
    textSlot,
    rows,
    slot,
    `,"latest_scan":${latest.json},"ranking":${JSON.stringify(ranking)}}`,
  );
}

/**
 * The HTTP fast path of v1 `/universities/{id}/scores`: the core's `universityScores`, spliced from the table of
 * latest scores kept per data generation. A university not in it (unknown, or never scanned) or with a score that
 * is not a tenth is read as before, with the same answer or error.
 */
export async function splicedUniversityScores(db: DB, id: number): Promise<unknown> {
  const table = await latestScoreTextsOf(db);
  const slot = slotOf(table, id);
  const json = slot < 0 ? null : latestScoresWriter(table, slot);
  return json === null ? universityScores(db, id) : json;
}
