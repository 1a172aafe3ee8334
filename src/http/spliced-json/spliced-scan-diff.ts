import { type DB, SCORE_NAMES, type ScanDiffParams, scanDiff } from "../../../lib/index.ts";
import { type ScanRow, scanRows } from "../../../lib/queries/get-scan.ts";
import { storedCheckChanges } from "../../../lib/queries/scan-diff.ts";
import { NULL_CODE } from "../../../lib/scores/tenths.ts";
import { utf8Write, writtenText } from "./answer-body.ts";
import { AsciiText, putSignedTenthsWord, putTenthsWord, WORD_SLACK, wordView } from "./ascii-words.ts";
import { JsonWriter } from "./json-text.ts";
import { scanScoreCodes } from "./spliced-scan.ts";
import { slotOf } from "./text-column.ts";
import {
  keptUniversityRefs,
  type UniversityTexts,
  UniversityWithin,
  universityTextsOf,
} from "./university-texts.ts";

/** `{"score":"…","a":` of each score, in catalogue order. */
const CHANGE_HEADS = SCORE_NAMES.map((name) => new AsciiText(`{"score":${JSON.stringify(name)},"a":`));
const B = new AsciiText(',"b":');
const DELTA = new AsciiText(',"delta":');
/** The most bytes a change takes: its head, `null` or a score, `,"b":`, a score, `,"delta":`, `-99.9`, `}`. */
const CHANGE_ROOM = Math.max(...CHANGE_HEADS.map((h) => h.length)) + 4 + B.length + 4 + DELTA.length + 5 + 1;

/** The changes' weights while they are put in order (|delta| in tenths, -1 one-sided). */
const WEIGHTS = new Int16Array(SCORE_NAMES.length);

/**
 * `before`, then a side of the diff, `{"id":…,"university":{…},"completed_at":…,"profile":…,"rubric_version":…}`,
 * its university's bytes copied from the list's rows, then `after`.
 */
const side = (row: ScanRow, texts: UniversityTexts, slot: number, before: string, after: string) =>
  new UniversityWithin(
    texts,
    slot,
    `${before}{"id":${Number(row.id)},"university":{`,
    `},"completed_at":${JSON.stringify(row.completed_at ?? "")},"profile":${JSON.stringify(row.profile)}` +
      `,"rubric_version":${row.rubric_version == null ? null : Number(row.rubric_version)}}${after}`,
  );

/**
 * The scan diff's bytes: its sides (`side`), its changes written as digits from the two scans' codes of tenths in
 * the core's order (largest |delta| first, one-sided ones last, ties in catalogue order), its summary and checks.
 */
class ScanDiffJson extends JsonWriter {
  /** Score indexes of the changes, in the answer's order: the first `#changes`. */
  readonly #order = new Uint8Array(SCORE_NAMES.length);
  readonly #changes: number;
  readonly #tail: string;
  #text: string | undefined;
  constructor(
    private readonly sideA: UniversityWithin,
    private readonly sideB: UniversityWithin,
    private readonly a: Uint16Array,
    private readonly b: Uint16Array,
    checks: string,
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
    this.#tail =
      `],"summary":{"improved":${improved},"declined":${declined},"unchanged":${unchanged},` +
      `"not_comparable":${oneSided}},"checks":${checks}}`;
  }
  get room(): number {
    return (
      this.sideA.room +
      this.sideB.room +
      this.#tail.length * 3 +
      1 +
      this.#changes * (CHANGE_ROOM + 1) +
      WORD_SLACK
    );
  }
  get text(): string {
    this.#text ??= writtenText(this);
    return this.#text;
  }
  write(out: Buffer, at: number): number {
    const { a, b } = this;
    const view = wordView(out);
    at = this.sideB.write(out, this.sideA.write(out, at));
    out[at++] = 0x5b; // [
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
    return at + utf8Write(out, this.#tail, at);
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
    side(rowA, texts, slotA, '{"a":', ""),
    side(rowB, texts, slotB, ',"b":', ',"changes":'),
    codesA,
    codesB,
    JSON.stringify(checks),
  );
}
