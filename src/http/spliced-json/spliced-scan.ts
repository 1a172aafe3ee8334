import { type DB, getScan, SCORE_NAMES } from "../../../lib/index.ts";
import { type ScanRow, scanRows } from "../../../lib/queries/get-scan.ts";
import { putTenthsCodes } from "../../../lib/scores/tenths.ts";
import { utf8Write, writtenText } from "./answer-body.ts";
import { AsciiText, WORD_SLACK, wordView } from "./ascii-words.ts";
import { JsonWriter } from "./json-text.ts";
import { putScoreMembers, SCORE_MEMBERS_ROOM } from "./latest-score-texts.ts";
import { ScanFields } from "./scan-fields.ts";
import { slotOf } from "./text-column.ts";
import { keptUniversityRefs, type UniversityTexts, universityTextsOf } from "./university-texts.ts";

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
  return new ScanJson(texts, slot, row, codes);
}

/** The constants between a scan's values. */
const ID = new AsciiText('{"id":');
const STATUS = new AsciiText('},"status":');
const STARTED_AT = new AsciiText(',"started_at":');
const COMPLETED_AT = new AsciiText(',"completed_at":');
const SCORES = new AsciiText(',"scores":');
const EVIDENCE = new AsciiText(',"evidence":');
/** The most bytes of the constants (besides the `ScanFields`) and the braces. */
const SCAN_ROOM =
  [ID, STATUS, STARTED_AT, COMPLETED_AT, SCORES, EVIDENCE].reduce((n, t) => n + t.length, 0) + 3 + WORD_SLACK;

/**
 * A scan's bytes: `{"id":…,"university":{…},"status":…,"started_at":…,"completed_at":…,"profile":…,
 * "rubric_version":…,"scores":{…}|null,"evidence":…}`, its university copied from the list's rows, its constants
 * written a word at a time, its scores as digits from their codes, the rest serialised once.
 */
class ScanJson extends JsonWriter {
  readonly #fields: ScanFields;
  /** The status, start, completion and evidence as JSON. */
  readonly #status: string;
  readonly #startedAt: string;
  readonly #completedAt: string;
  readonly #evidence: string;
  #text: string | undefined;
  constructor(
    private readonly texts: UniversityTexts,
    slot: number,
    row: ScanRow,
    private readonly codes: Uint16Array | null,
  ) {
    super();
    this.#fields = new ScanFields(row, slot);
    this.#status = JSON.stringify(row.status);
    this.#startedAt = JSON.stringify(row.started_at ?? null);
    this.#completedAt = JSON.stringify(row.completed_at ?? null);
    this.#evidence = row.evidence == null ? "null" : JSON.stringify(JSON.parse(row.evidence));
  }
  get room(): number {
    const strings =
      this.#status.length + this.#startedAt.length + this.#completedAt.length + this.#evidence.length;
    return SCAN_ROOM + strings * 3 + this.#fields.room(this.texts) + SCORE_MEMBERS_ROOM;
  }
  get text(): string {
    this.#text ??= writtenText(this);
    return this.#text;
  }
  write(out: Buffer, at: number): number {
    const view = wordView(out);
    at = this.#fields.writeIdAndUniversity(this.texts, out, view, ID.write(view, at));
    at = STATUS.write(view, at);
    at += utf8Write(out, this.#status, at);
    at = STARTED_AT.write(view, at);
    at += utf8Write(out, this.#startedAt, at);
    at = COMPLETED_AT.write(view, at);
    at += utf8Write(out, this.#completedAt, at);
    at = SCORES.write(view, this.#fields.writeProfileAndRubric(out, view, at));
    if (this.codes === null) {
      at += utf8Write(out, "null", at);
    } else {
      out[at++] = 0x7b; // {
      at = putScoreMembers(this.codes, 0, out, at);
      out[at++] = 0x7d; // }
    }
    at = EVIDENCE.write(view, at);
    at += utf8Write(out, this.#evidence, at);
    out[at++] = 0x7d; // }
    return at;
  }
}
