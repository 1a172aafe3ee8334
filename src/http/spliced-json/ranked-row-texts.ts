import { generationMemo } from "../../../lib/db/generation-memo.ts";
import { type DB, type RankingComposites, RankingCompositesSchema } from "../../../lib/index.ts";
import type { RankedRow } from "../../../lib/queries/rank.ts";
import {
  type RankedDetails,
  rankedDetailsAfter,
  rankedDetailsOf,
} from "../../../lib/queries/ranked-details.ts";
import { putTenthsCodes } from "../../../lib/scores/tenths.ts";
import { buildBatches } from "./build-batches.ts";
import { flat } from "./json-text.ts";
import { type KeptRow, KeptRowArray, KeptRows } from "./kept-rows.ts";
import { TenthsMembers } from "./tenths.ts";
import {
  changedSlots,
  mergedColumn,
  mergedNumbers,
  patchableChunks,
  room,
  slotOf,
  type TextColumn,
  TextColumnBuilder,
  textAt,
} from "./text-column.ts";
import { type UniversityTexts, universityAt, universityTextsOf } from "./university-texts.ts";

/**
 * The details a ranking or leaderboard row shows of every university with a latest completed scan (the core's
 * `RankedDetails`) besides the university itself, kept once per data generation (after a write of scans, only the
 * universities it changed are read again) as numbers and codes a slot, written back as the text `JSON.stringify`
 * gives; the university is the list's row of it (`universityAt`). A page then costs a lookup and a concatenation per
 * row: no read of the database, no serialisation of objects, and no object per row for the collector to trace.
 */
export interface RankedRows {
  /** University ids, ascending; a university's slot is its index here. */
  ids: Int32Array;
  /** The composites, `COMPOSITES.length` codes of tenths a slot (`tenths.ts`), in the schema's order. */
  composites: Uint16Array;
  /**
   * `"overall_score":…,…,"presence_score":…`, the composites without braces, kept only for a slot whose composites
   * the codes cannot say (not tenths of 0–100); empty for every other slot.
   */
  inexactComposites: TextColumn;
  /** The latest scan's date, as a code of `SCAN_DATES`. */
  scanDate: Int32Array;
  /** The university's completed scans. */
  scanCount: Int32Array;
  /** The id of its latest scan. */
  scanId: Int32Array;
}

/** Details read per statement: small runs keep the garbage of a build small (a build reads every ranked row). */
const RUN = 512;

/** A JSON object's members without its braces. */
const members = (part: RankedDetails[keyof RankedDetails]) => JSON.stringify(part).slice(1, -1);

/** The composites' names, in the schema's order: the order the core's rows write them. */
const COMPOSITES = Object.keys(RankingCompositesSchema.properties) as (keyof RankingComposites)[];
/** `"<name>":<value>` of each composite, in that order. */
const COMPOSITE_MEMBERS = new TenthsMembers(COMPOSITES);

async function buildRankedRows(db: DB): Promise<RankedRows> {
  let ids = new Int32Array(1024);
  const columns = new ColumnsBuilder();
  let count = 0;
  for await (const run of buildBatches(RUN, (after) => rankedDetailsAfter(db, after, RUN))) {
    ids = room(ids, count + run.length);
    for (const { id, details } of run) {
      ids[count] = id;
      columns.set(count, details);
      count++;
    }
  }
  return { ids: ids.slice(0, count), ...columns.build(count) };
}

/** The columns of `RankedRows` besides the ids, filled slot by slot. */
class ColumnsBuilder {
  #composites = new Uint16Array(1024 * COMPOSITES.length);
  readonly #inexactComposites = new TextColumnBuilder();
  #scanDate = new Int32Array(1024);
  #scanCount = new Int32Array(1024);
  #scanId = new Int32Array(1024);
  set(slot: number, details: RankedDetails): void {
    const stride = COMPOSITES.length;
    this.#composites = room(this.#composites, (slot + 1) * stride);
    const exact = putTenthsCodes(details.composites, COMPOSITES, this.#composites, slot * stride);
    this.#inexactComposites.set(slot, exact ? "" : members(details.composites));
    this.#scanDate = room(this.#scanDate, slot + 1);
    this.#scanDate[slot] = scanDateCode(details.scan.scan_date);
    this.#scanCount = room(this.#scanCount, slot + 1);
    this.#scanCount[slot] = details.record.scan_count;
    this.#scanId = room(this.#scanId, slot + 1);
    this.#scanId[slot] = details.scan.scan_id;
  }
  build(count: number): Omit<RankedRows, "ids"> {
    return {
      composites: this.#composites.slice(0, count * COMPOSITES.length),
      inexactComposites: this.#inexactComposites.build(count),
      scanDate: this.#scanDate.slice(0, count),
      scanCount: this.#scanCount.slice(0, count),
      scanId: this.#scanId.slice(0, count),
    };
  }
}

/**
 * Serialised rows of an earlier generation brought up to date: the `changed` universities are read again, their
 * texts go into chunks of their own, and every other slot keeps its text where it is. The same texts as a build
 * (tested against one); null, for a build, once the chunks pass `patchableChunks`.
 */
async function patchRankedRows(
  db: DB,
  _key: string,
  rows: RankedRows,
  changed: ReadonlySet<number>,
): Promise<RankedRows | null> {
  if (rows.inexactComposites.chunks.length + 2 > patchableChunks(rows.ids.length)) return null;
  const { added, fresh, runs, n } = await changedSlots(
    rows.ids,
    changed,
    (ids) => rankedDetailsOf(db, ids),
    (entries) => {
      const columns = new ColumnsBuilder();
      for (const [i, details] of entries.entries()) columns.set(i, details);
      return columns.build(entries.length);
    },
  );
  return {
    ids: mergedNumbers(rows.ids, Int32Array.from(added), runs, n),
    composites: mergedNumbers(rows.composites, fresh.composites, runs, n, COMPOSITES.length),
    inexactComposites: mergedColumn(rows.inexactComposites, fresh.inexactComposites, runs, n),
    scanDate: mergedNumbers(rows.scanDate, fresh.scanDate, runs, n),
    scanCount: mergedNumbers(rows.scanCount, fresh.scanCount, runs, n),
    scanId: mergedNumbers(rows.scanId, fresh.scanId, runs, n),
  };
}

/** After a write of scans, patched with the universities it changed. */
const rankedRowsMemo = generationMemo((db) => buildRankedRows(db), { patch: patchRankedRows });

/** The serialised details of every ranked university, built at most once per data generation. */
export const rankedRowsOf = (db: DB): Promise<RankedRows> => rankedRowsMemo(db, "");

/** `"overall_score":…,…,"presence_score":…`: a slot's composites as the members of a JSON object. */
export function compositesAt(rows: RankedRows, slot: number): string {
  const inexact = textAt(rows.inexactComposites, slot);
  if (inexact !== "") return inexact;
  return COMPOSITE_MEMBERS.text(rows.composites, slot * COMPOSITES.length);
}

/** The id of a slot's latest scan. */
export const scanIdAt = (rows: RankedRows, slot: number): number => rows.scanId[slot] as number;

/**
 * `"scan_date":"YYYY-MM-DD"` of each scan date met, by code: the same for every ranked rows (patches merge codes),
 * as many as the days the latest scans were made on.
 */
const SCAN_DATES: string[] = [];
const SCAN_DATE_CODES = new Map<string, number>();

function scanDateCode(date: string): number {
  let code = SCAN_DATE_CODES.get(date);
  if (code === undefined) {
    code = SCAN_DATES.length;
    SCAN_DATES.push(`"scan_date":${JSON.stringify(date)}`);
    SCAN_DATE_CODES.set(date, code);
  }
  return code;
}

/** `"scan_date":"YYYY-MM-DD"`: the date member of a slot's latest scan. */
const scanDateAt = (rows: RankedRows, slot: number): string =>
  SCAN_DATES[rows.scanDate[slot] as number] as string;

/** `"scan_id":…,"scan_date":"YYYY-MM-DD"`: a slot's latest scan as the members of a JSON object. */
export const scanMembersAt = (rows: RankedRows, slot: number): string =>
  `"scan_id":${rows.scanId[slot]},${scanDateAt(rows, slot)}`;

/** What makes a ranked row's text from the serialised details of its university and its university. */
export type RankedRowText = (r: RankedRow, details: RankedRows, slot: number, university: string) => string;

/** What is kept for one pair of ranked rows and list rows: the list slot of each ranked slot, and row texts. */
interface Pair {
  texts: UniversityTexts;
  slots: Int32Array;
  /** Row texts per maker, by slot and rank (`slot * (n + 1) + rank`), up to `ROWS_KEPT` each. */
  rowsByMaker: Map<RankedRowText, KeptRows>;
}

/** Row texts kept per maker and generation before they start afresh: the pages asked most, a few MB. */
const ROWS_KEPT = 4_096;
const pairs = new WeakMap<RankedRows, Pair>();

/** The pair of `rows` and `texts`, made when first asked for (the last pair of each ranked rows is kept). */
function pairOf(rows: RankedRows, texts: UniversityTexts): Pair {
  const held = pairs.get(rows);
  if (held?.texts === texts) return held;
  const slots = new Int32Array(rows.ids.length);
  const listIds = texts.ids;
  let j = 0;
  for (let i = 0; i < slots.length; i++) {
    const id = rows.ids[i] as number;
    while (j < listIds.length && (listIds[j] as number) < id) j++;
    slots[i] = listIds[j] === id ? j : -1;
  }
  const pair = { texts, slots, rowsByMaker: new Map() };
  pairs.set(rows, pair);
  return pair;
}

/**
 * Each slot's slot in the list's rows `texts` (-1 where they do not hold the university), made by one walk of the
 * two ascending id arrays when first asked for a pair: a page then finds each university with no second search.
 */
export const listSlotsOf = (rows: RankedRows, texts: UniversityTexts): Int32Array =>
  pairOf(rows, texts).slots;

/** The row texts `row` made for a pair. */
function keptRowsOf(pair: Pair, row: RankedRowText): KeptRows {
  let kept = pair.rowsByMaker.get(row);
  if (kept === undefined) {
    kept = new KeptRows(ROWS_KEPT);
    pair.rowsByMaker.set(row, kept);
  }
  return kept;
}

/**
 * A page of ranked rows as a JSON array, each row made by `row` from the serialised details of its university and
 * its university (`"id":…,"domain":…,"name":…,"country":…`) from the list's rows. A row whose university either
 * of the two does not hold (a write between the ranking and these texts) is left out. A row's text is kept with
 * the two it was made from, by its university and rank (and checked against its score): a page asked again, or
 * another page showing the row at the same rank, reuses the text and its UTF-8 (`KeptRows`: a page's rows, made
 * one after another, are copied as one run), and so does its CSV record. `row` must be one function per kind of
 * row, so that its texts are found again.
 */
export async function rankedRowsJson(
  db: DB,
  rows: readonly RankedRow[],
  row: RankedRowText,
): Promise<KeptRowArray> {
  if (rows.length === 0) return new KeptRowArray([]);
  // One await after another: the values are held, and Promise.all costs more than the awaits (docs/performance.md).
  const details = await rankedRowsOf(db);
  const universities = await universityTextsOf(db);
  const pair = pairOf(details, universities);
  const listSlots = pair.slots;
  const kept = keptRowsOf(pair, row);
  const ranks = details.ids.length + 1;
  const out: KeptRow[] = [];
  for (const r of rows) {
    const slot = slotOf(details, r.university_id);
    const listSlot = slot < 0 ? -1 : (listSlots[slot] as number);
    if (listSlot < 0) continue;
    const key = slot * ranks + r.rank;
    let one = kept.get(key);
    if (one === undefined || one.score !== r.score)
      one = kept.keep(key, r.score, flat(row(r, details, slot, universityAt(universities, listSlot))));
    out.push(one);
  }
  return new KeptRowArray(out);
}
