import { generationMemo } from "../../../lib/db/generation-memo.ts";
import type { DB, UniversityRef, UniversityRefs } from "../../../lib/index.ts";
import { universitiesAfter } from "../../../lib/queries/list-universities.ts";
import { utf8Write } from "./answer-body.ts";
import { buildBatches } from "./build-batches.ts";
import { type ByteColumn, ByteColumnBuilder, byteLength, bytesText, copyBytes } from "./byte-column.ts";
import { JsonRowArray, JsonWriter } from "./json-text.ts";
import { room, slotOf } from "./text-column.ts";

/**
 * Every university as a row of the universities list, serialised once per universities generation (a new scan
 * leaves it as it is), so that a page of the list or of a search is spliced from texts instead of read from the
 * database per request.
 */
export interface UniversityTexts {
  /** University ids, ascending; a university's slot is its index here. */
  ids: Int32Array;
  /** `{"id":…,"domain":…,"name":…,"country":…,"created_at":…}`, as the core's row serialises, in UTF-8. */
  row: ByteColumn;
  /** The bytes of each row's last member and brace, `,"created_at":…}`; 0 where they pass 255. */
  tail: Uint8Array;
  /** The bytes of each row's last two members and brace, `,"country":…,"created_at":…}`; 0 where they pass 255. */
  referenceTail: Uint8Array;
}

/** Universities read per statement. */
const RUN = 1024;
const CREATED_AT = ',"created_at":';
const COUNTRY = ',"country":';

async function buildUniversityTexts(db: DB): Promise<UniversityTexts> {
  let ids = new Int32Array(1024);
  let tail = new Uint8Array(1024);
  let referenceTail = new Uint8Array(1024);
  const row = new ByteColumnBuilder();
  let count = 0;
  for await (const run of buildBatches(RUN, (after) => universitiesAfter(db, after, RUN))) {
    ids = room(ids, count + run.length);
    tail = room(tail, count + run.length);
    referenceTail = room(referenceTail, count + run.length);
    for (const university of run) {
      const text = JSON.stringify(university);
      // An ASCII text's characters are its bytes; another's tails are measured as UTF-8.
      const ascii = row.set(count, text) === text.length;
      const bytesFrom = (at: number) => (ascii ? text.length - at : Buffer.byteLength(text.slice(at)));
      // A quote inside a JSON string is escaped, so the last `,"created_at":` and `,"country":` are the members'.
      const length = bytesFrom(text.lastIndexOf(CREATED_AT));
      const country = text.lastIndexOf(COUNTRY);
      const referenceLength = country < 0 ? 0 : bytesFrom(country);
      ids[count] = Number(university.id);
      tail[count] = length <= 255 ? length : 0;
      referenceTail[count] = referenceLength <= 255 ? referenceLength : 0;
      count++;
    }
  }
  return {
    ids: ids.slice(0, count),
    row: row.build(count),
    tail: tail.slice(0, count),
    referenceTail: referenceTail.slice(0, count),
  };
}

const universityTextsMemo = generationMemo((db) => buildUniversityTexts(db), { follows: "universities" });

/** Every university's row of the list, built at most once per universities generation. */
export const universityTextsOf = (db: DB): Promise<UniversityTexts> => universityTextsMemo(db, "");

/** A slot's row of the list, as the core serialises it. */
export const universityRowAt = (texts: UniversityTexts, slot: number): string =>
  bytesText(texts.row, slot, 0, 0);

/**
 * `"id":…,"domain":…,"name":…,"country":…`: a slot's row without its braces and `created_at`, the university
 * reference the rankings print.
 */
export function universityAt(texts: UniversityTexts, slot: number): string {
  const tail = texts.tail[slot] as number;
  if (tail > 0) return bytesText(texts.row, slot, 1, tail);
  const row = universityRowAt(texts, slot);
  // A quote inside a JSON string is escaped, so the last `,"created_at":` is the member's.
  return row.slice(1, row.lastIndexOf(CREATED_AT));
}

/** `"id":…,"domain":…,"name":…`: a slot's university reference without its country. */
export function universityReferenceAt(texts: UniversityTexts, slot: number): string {
  const tail = texts.referenceTail[slot] as number;
  if (tail > 0) return bytesText(texts.row, slot, 1, tail);
  const university = universityAt(texts, slot);
  return university.slice(0, university.lastIndexOf(COUNTRY));
}

/**
 * Writes a slot's row without its opening brace and its last `tails[slot]` bytes as UTF-8 at `at` of `out`, copied as
 * they are; where that tail is not kept (0), `text` of the slot instead. Returns where it ends.
 */
function writeBetweenTails(
  texts: UniversityTexts,
  slot: number,
  tails: Uint8Array,
  text: (texts: UniversityTexts, slot: number) => string,
  out: Buffer,
  at: number,
): number {
  const tail = tails[slot] as number;
  if (tail > 0) return copyBytes(texts.row, slot, 1, tail, out, at);
  return at + utf8Write(out, text(texts, slot), at);
}

/** Writes a slot's `universityReferenceAt` as UTF-8 at `at` of `out`, its bytes copied as they are; returns its end. */
export const writeUniversityReference = (
  texts: UniversityTexts,
  slot: number,
  out: Buffer,
  at: number,
): number => writeBetweenTails(texts, slot, texts.referenceTail, universityReferenceAt, out, at);

/** Writes a slot's `universityAt` as UTF-8 at `at` of `out`, its bytes copied as they are; returns its end. */
export const writeUniversity = (texts: UniversityTexts, slot: number, out: Buffer, at: number): number =>
  writeBetweenTails(texts, slot, texts.tail, universityAt, out, at);

/** `before`, a slot's `universityAt` as its bytes, `after`: a university inside a value the answer writes. */
export class UniversityWithin extends JsonWriter {
  constructor(
    private readonly texts: UniversityTexts,
    private readonly slot: number,
    private readonly before: string,
    private readonly after: string,
  ) {
    super();
  }
  get room(): number {
    return (this.before.length + this.after.length) * 3 + universityRowBytes(this.texts, this.slot);
  }
  get text(): string {
    return this.before + universityAt(this.texts, this.slot) + this.after;
  }
  write(out: Buffer, at: number): number {
    at += utf8Write(out, this.before, at);
    at = writeUniversity(this.texts, this.slot, out, at);
    return at + utf8Write(out, this.after, at);
  }
}

/** Writes a slot's row as UTF-8 at `at` of `out`, without its last `cut` bytes (1: its closing brace); returns its end. */
export const writeUniversityRow = (
  texts: UniversityTexts,
  slot: number,
  out: Buffer,
  at: number,
  cut = 0,
): number => copyBytes(texts.row, slot, 0, cut, out, at);

/** The UTF-8 length of a slot's row: the most `writeUniversityRow` and `writeUniversityReference` write of it. */
export const universityRowBytes = (texts: UniversityTexts, slot: number): number =>
  byteLength(texts.row, slot);

/** The country code of a slot's university. */
export function universityCountryAt(texts: UniversityTexts, slot: number): string {
  const tail = texts.tail[slot] as number;
  const referenceTail = texts.referenceTail[slot] as number;
  // `,"country":"XX"` lies between the two tails: only its value is decoded.
  if (tail > 0 && referenceTail > 0) {
    const head = byteLength(texts.row, slot) - referenceTail + COUNTRY.length;
    return JSON.parse(bytesText(texts.row, slot, head, tail)) as string;
  }
  const university = universityAt(texts, slot);
  return JSON.parse(university.slice(university.lastIndexOf(COUNTRY) + COUNTRY.length)) as string;
}

/**
 * The core's `UniversityRefs` from the list's rows kept in memory: a scan's university without a read of the
 * database (`scansById`); an id the rows do not hold (a write in between) is read by the core.
 */
export const keptUniversityRefs =
  (db: DB): UniversityRefs =>
  async (ids) => {
    const texts = await universityTextsOf(db);
    const out = new Map<number, UniversityRef>();
    for (const id of ids) {
      const slot = slotOf(texts, id);
      if (slot >= 0) out.set(id, JSON.parse(`{${universityAt(texts, slot)}}`) as UniversityRef);
    }
    return out;
  };

/**
 * Rows of the list as a JSON array: a number is a slot of `texts`, whose bytes are copied as they are; a string is a
 * row serialised otherwise (one the texts do not hold, read by the core).
 */
export class UniversityRowsJson extends JsonRowArray<number | string> {
  constructor(
    private readonly texts: UniversityTexts,
    items: readonly (number | string)[],
  ) {
    super(items);
  }
  protected itemText(item: number | string): string {
    return typeof item === "number" ? universityRowAt(this.texts, item) : item;
  }
  protected itemRoom(item: number | string): number {
    return typeof item === "number" ? universityRowBytes(this.texts, item) : item.length * 3;
  }
  protected writeItem(item: number | string, out: Buffer, at: number): number {
    return typeof item === "number"
      ? writeUniversityRow(this.texts, item, out, at)
      : at + utf8Write(out, item, at);
  }
}
