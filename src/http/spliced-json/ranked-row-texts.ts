import { generationMemo } from "../../../lib/db/generation-memo.ts";
import { keysetBatches } from "../../../lib/db/keyset-batches.ts";
import type { DB } from "../../../lib/index.ts";
import type { RankedRow } from "../../../lib/queries/rank.ts";
import {
  type RankedDetails,
  rankedDetailsAfter,
  rankedDetailsOf,
} from "../../../lib/queries/ranked-details.ts";
import { JsonRows } from "./json-text.ts";
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

/**
 * The details a ranking or leaderboard row shows of every university with a latest completed scan (the core's
 * `RankedDetails`), serialised once per data generation by `JSON.stringify` of each part (after a write of
 * scans, only the universities it changed). A page then costs a lookup and a concatenation per row: no read of
 * the database, no serialisation of objects. The texts are kept as runs of a few long strings (about 260 bytes a university, no
 * object per row for the collector to trace).
 */
export interface RankedRows {
  /** University ids, ascending; a university's slot is its index here. */
  ids: Int32Array;
  /** `"id":…,"domain":…,"name":…,"country":…`: the university reference without its braces. */
  university: TextColumn;
  /** `"overall_score":…,…,"presence_score":…`: the composites without braces. */
  composites: TextColumn;
  /** `"scan_id":…,"scan_date":"YYYY-MM-DD"`: the latest scan without braces. */
  scan: TextColumn;
  /** The university's completed scans. */
  scanCount: Int32Array;
}

/** Details read per statement: small runs keep the garbage of a build small (a build reads every ranked row). */
const RUN = 512;

/** A JSON object's members without its braces. */
const members = (part: RankedDetails[keyof RankedDetails]) => JSON.stringify(part).slice(1, -1);

async function buildRankedRows(db: DB): Promise<RankedRows> {
  let ids = new Int32Array(1024);
  const columns = new ColumnsBuilder();
  let count = 0;
  for await (const run of keysetBatches(RUN, (after) => rankedDetailsAfter(db, after, RUN))) {
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
  readonly #university = new TextColumnBuilder();
  readonly #composites = new TextColumnBuilder();
  readonly #scan = new TextColumnBuilder();
  #scanCount = new Int32Array(1024);
  set(slot: number, details: RankedDetails): void {
    this.#university.set(slot, members(details.university));
    this.#composites.set(slot, members(details.composites));
    this.#scan.set(slot, members(details.scan));
    this.#scanCount = room(this.#scanCount, slot + 1);
    this.#scanCount[slot] = details.record.scan_count;
  }
  build(count: number): Omit<RankedRows, "ids"> {
    return {
      university: this.#university.build(count),
      composites: this.#composites.build(count),
      scan: this.#scan.build(count),
      scanCount: this.#scanCount.slice(0, count),
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
  if (rows.university.chunks.length + 2 > patchableChunks(rows.ids.length)) return null;
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
    university: mergedColumn(rows.university, fresh.university, runs, n),
    composites: mergedColumn(rows.composites, fresh.composites, runs, n),
    scan: mergedColumn(rows.scan, fresh.scan, runs, n),
    scanCount: mergedNumbers(rows.scanCount, fresh.scanCount, runs, n),
  };
}

/** After a write of scans, patched with the universities it changed. */
const rankedRowsMemo = generationMemo((db) => buildRankedRows(db), { patch: patchRankedRows });

/** The serialised details of every ranked university, built at most once per data generation. */
export const rankedRowsOf = (db: DB): Promise<RankedRows> => rankedRowsMemo(db, "");

/** The id of a slot's latest scan, which leads its `scan` text (`"scan_id":…,"scan_date":…`). */
export const scanIdAt = (rows: RankedRows, slot: number): number =>
  Number.parseInt(textAt(rows.scan, slot).slice('"scan_id":'.length), 10);

/** `"scan_date":"YYYY-MM-DD"`: the last member of a slot's `scan` text. */
export function scanDateAt(rows: RankedRows, slot: number): string {
  const scan = textAt(rows.scan, slot);
  return scan.slice(scan.indexOf(',"scan_date":') + 1);
}

const COUNTRY = ',"country":';

/** `"id":…,"domain":…,"name":…`: a slot's `university` text without its last member, the country. */
export function referenceAt(rows: RankedRows, slot: number): string {
  const university = textAt(rows.university, slot);
  // A quote inside a JSON string is escaped, so the last `,"country":` is the member's.
  return university.slice(0, university.lastIndexOf(COUNTRY));
}

/** The country code of a slot's `university` text, its last member. */
export function countryAt(rows: RankedRows, slot: number): string {
  const university = textAt(rows.university, slot);
  return JSON.parse(university.slice(university.lastIndexOf(COUNTRY) + COUNTRY.length)) as string;
}

/**
 * A page of ranked rows as a JSON array, each row made by `row` from the serialised details of its university.
 * A row whose university has no details (a write between the ranking and these details) is left out.
 */
export async function rankedRowsJson(
  db: DB,
  rows: readonly RankedRow[],
  row: (r: RankedRow, details: RankedRows, slot: number) => string,
): Promise<JsonRows> {
  if (rows.length === 0) return new JsonRows("[]", []);
  const details = await rankedRowsOf(db);
  const texts: string[] = [];
  // Appended as it goes (a rope the answer's one UTF-8 encoding flattens), not joined at the end (a copy more).
  let text = "[";
  for (const r of rows) {
    const slot = slotOf(details, r.university_id);
    if (slot < 0) continue;
    const one = row(r, details, slot);
    text += texts.length > 0 ? `,${one}` : one;
    texts.push(one);
  }
  return new JsonRows(`${text}]`, texts);
}
