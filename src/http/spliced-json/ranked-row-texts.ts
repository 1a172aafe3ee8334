import { generationMemo } from "../../../lib/db/generation-memo.ts";
import type { DB } from "../../../lib/index.ts";
import type { RankedRow } from "../../../lib/queries/rank.ts";
import { type RankedDetails, rankedDetailsAfter } from "../../../lib/queries/ranked-details.ts";
import { JsonRows } from "./json-text.ts";

/**
 * The details a ranking or leaderboard row shows of every university with a latest completed scan (the core's
 * `RankedDetails`), serialised once per data generation by `JSON.stringify` of each part. A page then costs a lookup and a concatenation per row: no read of the database, no
 * serialisation of objects. The texts are kept as runs of a few long strings (about 240 bytes a university, no
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
}

/** One short text per slot, each a run of one of a few long strings. */
export interface TextColumn {
  chunks: string[];
  chunk: Uint16Array;
  start: Int32Array;
  end: Int32Array;
}

export function textAt(column: TextColumn, slot: number): string {
  return (column.chunks[column.chunk[slot]!] as string).slice(column.start[slot], column.end[slot]);
}

/** Texts per chunk: a chunk is joined as soon as it is full, so the short texts become garbage as they come. */
const TEXTS_PER_CHUNK = 256;
/** Anything beyond Latin-1 makes a JavaScript string two bytes a character, so such texts get chunks of their own. */
const WIDE = /[\u0100-\uffff]/;

interface OpenChunk {
  id: number;
  parts: string[];
  length: number;
}

/** `array` with room for at least `size` elements: itself, or a copy twice as long. */
function room<A extends Uint16Array | Int32Array>(array: A, size: number): A {
  if (size <= array.length) return array;
  const grown = new (array.constructor as new (n: number) => A)(Math.max(size, array.length * 2));
  grown.set(array);
  return grown;
}

class TextColumnBuilder {
  readonly #chunks: string[] = [];
  readonly #open: { narrow?: OpenChunk; wide?: OpenChunk } = {};
  #chunk = new Uint16Array(1024);
  #start = new Int32Array(1024);
  #end = new Int32Array(1024);
  set(slot: number, text: string): void {
    const kind = WIDE.test(text) ? "wide" : "narrow";
    let open = this.#open[kind];
    if (open === undefined) {
      open = { id: this.#chunks.length, parts: [], length: 0 };
      this.#chunks.push("");
      this.#open[kind] = open;
    }
    this.#chunk = room(this.#chunk, slot + 1);
    this.#start = room(this.#start, slot + 1);
    this.#end = room(this.#end, slot + 1);
    this.#chunk[slot] = open.id;
    this.#start[slot] = open.length;
    open.length += text.length;
    this.#end[slot] = open.length;
    open.parts.push(text);
    if (open.parts.length >= TEXTS_PER_CHUNK) this.#close(kind);
  }
  #close(kind: "narrow" | "wide"): void {
    const open = this.#open[kind];
    if (open === undefined) return;
    this.#chunks[open.id] = open.parts.join("");
    this.#open[kind] = undefined;
  }
  build(count: number): TextColumn {
    this.#close("narrow");
    this.#close("wide");
    return {
      chunks: this.#chunks,
      chunk: this.#chunk.slice(0, count),
      start: this.#start.slice(0, count),
      end: this.#end.slice(0, count),
    };
  }
}

/** Details read per statement: small runs keep the garbage of a build small (a build reads every ranked row). */
const RUN = 512;

/** A JSON object's members without its braces. */
const members = (part: RankedDetails[keyof RankedDetails]) => JSON.stringify(part).slice(1, -1);

async function buildRankedRows(db: DB): Promise<RankedRows> {
  let ids = new Int32Array(1024);
  const university = new TextColumnBuilder();
  const composites = new TextColumnBuilder();
  const scan = new TextColumnBuilder();
  let count = 0;
  let afterId = 0;
  for (;;) {
    const run = await rankedDetailsAfter(db, afterId, RUN);
    ids = room(ids, count + run.length);
    for (const { id, details } of run) {
      ids[count] = id;
      university.set(count, members(details.university));
      composites.set(count, members(details.composites));
      scan.set(count, members(details.scan));
      count++;
    }
    if (run.length < RUN) break;
    afterId = ids[count - 1]!;
  }
  return {
    ids: ids.slice(0, count),
    university: university.build(count),
    composites: composites.build(count),
    scan: scan.build(count),
  };
}

const rankedRowsMemo = generationMemo((db) => buildRankedRows(db));

/** The serialised details of every ranked university, built at most once per data generation. */
export const rankedRowsOf = (db: DB): Promise<RankedRows> => rankedRowsMemo(db, "");

/** The slot of a university id, or -1 when it has no latest completed scan. */
export function slotOf(rows: RankedRows, id: number): number {
  const ids = rows.ids;
  let lo = 0;
  let hi = ids.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = ids[mid]!;
    if (v === id) return mid;
    if (v < id) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
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
