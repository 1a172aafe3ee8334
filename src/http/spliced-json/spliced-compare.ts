import { type CompareParams, type DB, isoDate } from "../../../lib/index.ts";
import { comparisonEntries, parseIds } from "../../../lib/queries/compare.ts";
import { utf8Write } from "./answer-body.ts";
import { AsciiText, WORD_SLACK, wordView } from "./ascii-words.ts";
import { JsonArray, type JsonWriter } from "./json-text.ts";
import {
  type LatestScoreTexts,
  latestScoreTextsOf,
  SCORE_MEMBERS_ROOM,
  scoreMembers,
  writeScoreMembers,
} from "./latest-score-texts.ts";
import { slotOf, textAt, textHead } from "./text-column.ts";
import {
  type UniversityTexts,
  universityReferenceAt,
  universityRowBytes,
  universityTextsOf,
  writeUniversityReference,
} from "./university-texts.ts";

/**
 * The HTTP fast path of `/compare`: the core's `compare`, its entries spliced from the table of latest scores (the
 * scan's date and scores) and the list's rows (the university). Universities these do not hold (unknown, or added
 * between the reads) or with a score that is not a tenth are read by the core, in one statement, errors included.
 * The bytes equal `JSON.stringify` of the core's answer (test/db/spliced-json.test.ts).
 */
export async function splicedCompare(db: DB, params: CompareParams): Promise<JsonWriter> {
  const ids = parseIds(params.ids);
  // One await after another: the values are held, and Promise.all costs more than the awaits (docs/performance.md).
  const table = await latestScoreTextsOf(db);
  const universities = await universityTextsOf(db);
  const entries = ids.map((id) => entryOf(table, universities, id));
  const others = ids.filter((_, i) => entries[i] === null);
  if (others.length > 0) {
    const read = await comparisonEntries(db, others);
    let k = 0;
    entries.forEach((entry, i) => {
      if (entry === null) entries[i] = JSON.stringify(read[k++]);
    });
  }
  return new ComparisonJson(table, universities, entries as (string | SplicedEntry)[]);
}

/** An entry spliced from the tables: its university's slot in the list's rows, its date member and its scores' slot. */
interface SplicedEntry {
  listSlot: number;
  /** The date as JSON, quotes included. */
  date: string;
  slot: number;
}

/** One university's entry (a text, or what to splice it from), or null when the tables cannot make it. */
function entryOf(
  table: LatestScoreTexts,
  universities: UniversityTexts,
  id: number,
): string | SplicedEntry | null {
  const scoreSlot = slotOf(table, id);
  const listSlot = slotOf(universities, id);
  if (scoreSlot < 0 || listSlot < 0) return null;
  if (table.scanId[scoreSlot] === 0)
    return `{"university":{${universityReferenceAt(universities, listSlot)}},"scan_date":null,"scores":null}`;
  if (table.exact[scoreSlot] !== 1) return null;
  const date = scanDateOf(table, scoreSlot);
  return date === null ? null : { listSlot, date, slot: scoreSlot };
}

const OPEN = '{"university":{';
const SCORES = ',"scores":{';
const OPEN_TEXT = new AsciiText(OPEN);
/** `},"scan_date":`: what follows the university's reference, up to the date. */
const AFTER_UNIVERSITY = new AsciiText('},"scan_date":');
const SCORES_TEXT = new AsciiText(SCORES);

/**
 * The comparison's JSON array, written straight into the answer's bytes: the university's bytes copied from the
 * list's rows, the date as UTF-8, the scores as digits from their codes (`writeScoreMembers`), with no text made
 * per entry.
 */
class ComparisonJson extends JsonArray<string | SplicedEntry> {
  constructor(
    private readonly table: LatestScoreTexts,
    private readonly universities: UniversityTexts,
    entries: readonly (string | SplicedEntry)[],
  ) {
    super(entries);
  }
  protected itemText(e: string | SplicedEntry): string {
    if (typeof e === "string") return e;
    const university = universityReferenceAt(this.universities, e.listSlot);
    return `${OPEN}${university}},"scan_date":${e.date}${SCORES}${scoreMembers(this.table, e.slot)}}}`;
  }
  protected itemRoom(e: string | SplicedEntry): number {
    if (typeof e === "string") return e.length * 3;
    const constants = OPEN_TEXT.length + AFTER_UNIVERSITY.length + SCORES_TEXT.length + 2 + WORD_SLACK;
    return (
      constants + universityRowBytes(this.universities, e.listSlot) + e.date.length * 3 + SCORE_MEMBERS_ROOM
    );
  }
  protected writeItem(e: string | SplicedEntry, out: Buffer, at: number): number {
    if (typeof e === "string") return at + utf8Write(out, e, at);
    const view = wordView(out);
    at = OPEN_TEXT.write(view, at);
    at = writeUniversityReference(this.universities, e.listSlot, out, at);
    at = AFTER_UNIVERSITY.write(view, at);
    at += utf8Write(out, e.date, at);
    at = SCORES_TEXT.write(view, at);
    at = writeScoreMembers(this.table, e.slot, out, at);
    out[at++] = 0x7d; // }
    out[at++] = 0x7d; // }
    return at;
  }
}

/** The quote and first ten characters of a JSON string whose first ten are written as they are. */
const PLAIN_DATE = /^"[^"\\]{9}[^"\\\ud800-\udbff]$/;

/** Dates as JSON by code, and the code of each, as many as the days the latest scans were made on. */
const DATES: string[] = [];
const DATE_CODES = new Map<string, number>();
/** A slot's date not made yet, and a slot whose `completed_at` is no text. */
const UNMADE = 0;
const NO_DATE = -1;
/** Each table's date code (one more than the index in `DATES`) by slot, filled as slots are compared. */
const dateCodesOf = new WeakMap<LatestScoreTexts, Int32Array>();

/**
 * `"YYYY-MM-DD"`: the core's `isoDate` of a slot's `completed_at`, as JSON, made once per table and slot (a patched
 * table is a new one). The JSON text's first eleven characters are the date as JSON without its closing quote,
 * unless an escape or a cut surrogate pair lies within them; null where `completed_at` is not a text (the core
 * answers).
 */
function scanDateOf(table: LatestScoreTexts, slot: number): string | null {
  let codes = dateCodesOf.get(table);
  if (codes === undefined) {
    codes = new Int32Array(table.ids.length);
    dateCodesOf.set(table, codes);
  }
  let code = codes[slot] as number;
  if (code === UNMADE) {
    const head = textHead(table.completedAt, slot, 11);
    let date: string | null;
    if (PLAIN_DATE.test(head)) date = `${head}"`;
    else {
      const completedAt: unknown = JSON.parse(textAt(table.completedAt, slot));
      date = typeof completedAt === "string" ? JSON.stringify(isoDate(completedAt)) : null;
    }
    if (date === null) code = NO_DATE;
    else {
      code = DATE_CODES.get(date) ?? DATES.push(date);
      DATE_CODES.set(date, code);
    }
    codes[slot] = code;
  }
  return code === NO_DATE ? null : (DATES[code - 1] as string);
}
