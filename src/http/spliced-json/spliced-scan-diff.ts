import { type DB, SCORE_NAMES, type ScanDiffParams, scanDiff } from "../../../lib/index.ts";
import { type ScanRow, scanRows } from "../../../lib/queries/get-scan.ts";
import { storedCheckChanges } from "../../../lib/queries/scan-diff.ts";
import { NULL_CODE } from "../../../lib/scores/tenths.ts";
import { utf8Write, writtenText } from "./answer-body.ts";
import {
  AsciiText,
  putDigits,
  putSignedTenthsWord,
  putTenthsWord,
  WORD_SLACK,
  wordView,
} from "./ascii-words.ts";
import { JsonWriter } from "./json-text.ts";
import { ScanFields } from "./scan-fields.ts";
import { scanScoreCodes } from "./spliced-scan.ts";
import { slotOf } from "./text-column.ts";
import { keptUniversityRefs, type UniversityTexts, universityTextsOf } from "./university-texts.ts";

/** `{"score":"…","a":` of each score, in catalogue order. */
const CHANGE_HEADS = SCORE_NAMES.map((name) => new AsciiText(`{"score":${JSON.stringify(name)},"a":`));
const B = new AsciiText(',"b":');
const DELTA = new AsciiText(',"delta":');
/** The most bytes a change takes: its head, `null` or a score, `,"b":`, a score, `,"delta":`, `-99.9`, `}`. */
const CHANGE_ROOM = Math.max(...CHANGE_HEADS.map((h) => h.length)) + 4 + B.length + 4 + DELTA.length + 5 + 1;

/** The constants around a side and the summary. */
const SIDE_A = new AsciiText('{"a":{"id":');
const SIDE_B = new AsciiText(',"b":{"id":');
const COMPLETED_AT = new AsciiText('},"completed_at":');
const CHANGES = new AsciiText('},"changes":[');
const SUMMARY = [
  new AsciiText('],"summary":{"improved":'),
  new AsciiText(',"declined":'),
  new AsciiText(',"unchanged":'),
  new AsciiText(',"not_comparable":'),
  new AsciiText('},"checks":'),
] as const;
/** The most bytes of a side's own constants (besides its `ScanFields`) and its `}`. */
const SIDE_ROOM = SIDE_A.length + COMPLETED_AT.length + 1;
/** The most bytes of the summary's constants and its four counts (two digits each) around the checks. */
const SUMMARY_ROOM = CHANGES.length + SUMMARY.reduce((n, t) => n + t.length + 2, 0) + 1;

/** The changes' weights while they are put in order (|delta| in tenths, -1 one-sided). */
const WEIGHTS = new Int16Array(SCORE_NAMES.length);

/** A side of the diff: `{"id":…,"university":{…},"completed_at":…,"profile":…,"rubric_version":…}`. */
class DiffSide extends ScanFields {
  readonly completedAt: string;
  constructor(row: ScanRow, slot: number) {
    super(row, slot);
    this.completedAt = JSON.stringify(row.completed_at ?? "");
  }
  override room(texts: UniversityTexts): number {
    return SIDE_ROOM + this.completedAt.length * 3 + super.room(texts);
  }
  /** Writes the side from its id on (the opening is the caller's); returns where it ends, before its `}`. */
  write(texts: UniversityTexts, out: Buffer, at: number): number {
    const view = wordView(out);
    at = COMPLETED_AT.write(view, this.writeIdAndUniversity(texts, out, view, at));
    at += utf8Write(out, this.completedAt, at);
    return this.writeProfileAndRubric(out, view, at);
  }
}

/**
 * The scan diff's bytes: its sides (`DiffSide`, the universities' bytes copied from the list's rows), its changes
 * written as digits from the two scans' codes of tenths in the core's order (largest |delta| first, one-sided ones
 * last, ties in catalogue order), its summary and checks.
 */
class ScanDiffJson extends JsonWriter {
  /** Score indexes of the changes, in the answer's order: the first `#changes`. */
  readonly #order = new Uint8Array(SCORE_NAMES.length);
  readonly #changes: number;
  /** Improved, declined, unchanged, not comparable. */
  readonly #summary: readonly [number, number, number, number];
  #text: string | undefined;
  constructor(
    private readonly texts: UniversityTexts,
    private readonly sideA: DiffSide,
    private readonly sideB: DiffSide,
    private readonly a: Uint16Array,
    private readonly b: Uint16Array,
    private readonly checks: string,
  ) {
    super();
    const order = this.#order;
    const weight = WEIGHTS;
    let n = 0;
    let improved = 0;
    let declined = 0;
    let unchanged = 0;
    let oneSided = 0;
    for (let i = 0; i < a.length; i++) {
      const ca = a[i] as number;
      const cb = b[i] as number;
      if (ca === NULL_CODE && cb === NULL_CODE) continue;
      let w: number;
      if (ca === NULL_CODE || cb === NULL_CODE) {
        oneSided++;
        w = -1;
      } else {
        const delta = cb - ca;
        if (delta > 0) improved++;
        else if (delta < 0) declined++;
        else unchanged++;
        w = delta < 0 ? -delta : delta;
      }
      // Inserted after every change of a weight as large: largest first, ties in catalogue order (34 at most).
      let at = n++;
      while (at > 0 && (weight[at - 1] as number) < w) {
        weight[at] = weight[at - 1] as number;
        order[at] = order[at - 1] as number;
        at--;
      }
      weight[at] = w;
      order[at] = i;
    }
    this.#changes = n;
    this.#summary = [improved, declined, unchanged, oneSided];
  }
  get room(): number {
    return (
      this.sideA.room(this.texts) +
      this.sideB.room(this.texts) +
      SUMMARY_ROOM +
      this.checks.length * 3 +
      this.#changes * (CHANGE_ROOM + 1) +
      WORD_SLACK
    );
  }
  get text(): string {
    this.#text ??= writtenText(this);
    return this.#text;
  }
  write(out: Buffer, at: number): number {
    const { a, b, texts } = this;
    const view = wordView(out);
    at = this.sideA.write(texts, out, SIDE_A.write(view, at));
    out[at++] = 0x7d; // }
    at = this.sideB.write(texts, out, SIDE_B.write(view, at));
    at = CHANGES.write(view, at);
    for (let k = 0; k < this.#changes; k++) {
      const i = this.#order[k] as number;
      if (k > 0) out[at++] = 0x2c; // ,
      at = (CHANGE_HEADS[i] as AsciiText).write(view, at);
      const ca = a[i] as number;
      const cb = b[i] as number;
      at = putTenthsWord(view, ca, at);
      at = B.write(view, at);
      at = putTenthsWord(view, cb, at);
      at = DELTA.write(view, at);
      at =
        ca === NULL_CODE || cb === NULL_CODE
          ? putTenthsWord(view, NULL_CODE, at)
          : putSignedTenthsWord(view, cb - ca, at);
      out[at++] = 0x7d; // }
    }
    for (let k = 0; k < 4; k++) {
      at = (SUMMARY[k] as AsciiText).write(view, at);
      at = putDigits(out, this.#summary[k] as number, at);
    }
    at = SUMMARY[4].write(view, at);
    at += utf8Write(out, this.checks, at);
    out[at++] = 0x7d; // }
    return at;
  }
}

/**
 * The HTTP fast path of v2 `/scan-diff`: the core's `scanDiff`, its two scans read by the core's statement and
 * spliced with the list's rows of their universities kept in memory, the changes written as digits from the
 * scores' codes of tenths. An unknown or uncompleted scan, a university the rows do not hold (a write in between)
 * and a score that is not a tenth are answered by the core. The bytes equal `JSON.stringify` of the core's answer
 * (test/db/spliced-json.test.ts); why it exists is in docs/performance.md.
 */
export async function splicedScanDiff(db: DB, params: ScanDiffParams): Promise<unknown> {
  const { a, b } = params;
  const texts = await universityTextsOf(db);
  const rows = await scanRows(db, a === b ? [a] : [a, b]);
  const rowA = rows.find((row) => Number(row.id) === a);
  const rowB = rows.find((row) => Number(row.id) === b);
  const slotA = rowA === undefined ? -1 : slotOf(texts, Number(rowA.university_id));
  const slotB = rowB === undefined ? -1 : slotOf(texts, Number(rowB.university_id));
  const codesA = rowA?.status === "completed" ? scanScoreCodes(rowA) : null;
  const codesB = rowB?.status === "completed" ? scanScoreCodes(rowB) : null;
  if (
    rowA === undefined ||
    rowB === undefined ||
    slotA < 0 ||
    slotB < 0 ||
    codesA === null ||
    codesB === null
  ) {
    return scanDiff(db, params, keptUniversityRefs(db));
  }
  const checks = storedCheckChanges(rowA.evidence ?? null, rowB.evidence ?? null);
  return new ScanDiffJson(
    texts,
    new DiffSide(rowA, slotA),
    new DiffSide(rowB, slotB),
    codesA,
    codesB,
    JSON.stringify(checks),
  );
}
