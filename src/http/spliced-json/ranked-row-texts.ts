import { generationMemo } from "../../../lib/db/generation-memo.ts";
import type { DB } from "../../../lib/index.ts";
import { type PatchRun, patchById, patchedLength } from "../../../lib/queries/patch-runs.ts";
import type { RankedRow } from "../../../lib/queries/rank.ts";
import {
  type RankedDetails,
  rankedDetailsAfter,
  rankedDetailsOf,
} from "../../../lib/queries/ranked-details.ts";
import { JsonRows } from "./json-text.ts";

/**
 * The details a ranking or leaderboard row shows of every university with a latest completed scan (the core's
 * `RankedDetails`), serialised once per data generation by `JSON.stringify` of each part (after a write of
 * scans, only the universities it changed). A page then costs a lookup and a concatenation per row: no read of
 * the database, no serialisation of objects. The texts are kept as runs of a few long strings (about 240 bytes a university, no
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
  /** The university's `created_at` as a JSON string, quotes included. */
  createdAt: TextColumn;
  /** The university's completed scans. */
  scanCount: Int32Array;
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
  const columns = new ColumnsBuilder();
  let count = 0;
  let afterId = 0;
  for (;;) {
    const run = await rankedDetailsAfter(db, afterId, RUN);
    ids = room(ids, count + run.length);
    for (const { id, details } of run) {
      ids[count] = id;
      columns.set(count, details);
      count++;
    }
    if (run.length < RUN) break;
    afterId = ids[count - 1]!;
  }
  return { ids: ids.slice(0, count), ...columns.build(count) };
}

/** The columns of `RankedRows` besides the ids, filled slot by slot. */
class ColumnsBuilder {
  readonly #university = new TextColumnBuilder();
  readonly #composites = new TextColumnBuilder();
  readonly #scan = new TextColumnBuilder();
  readonly #createdAt = new TextColumnBuilder();
  #scanCount = new Int32Array(1024);
  set(slot: number, details: RankedDetails): void {
    this.#university.set(slot, members(details.university));
    this.#composites.set(slot, members(details.composites));
    this.#scan.set(slot, members(details.scan));
    this.#createdAt.set(slot, JSON.stringify(details.record.created_at));
    this.#scanCount = room(this.#scanCount, slot + 1);
    this.#scanCount[slot] = details.record.scan_count;
  }
  build(count: number): Omit<RankedRows, "ids"> {
    return {
      university: this.#university.build(count),
      composites: this.#composites.build(count),
      scan: this.#scan.build(count),
      createdAt: this.#createdAt.build(count),
      scanCount: this.#scanCount.slice(0, count),
    };
  }
}

/**
 * Chunks a column may have before a patch builds afresh instead: about twice a build's, and a thousand small
 * ones of patches (their superseded texts stay in the old chunks until then); `TextColumn.chunk` is 16 bits.
 */
const chunkLimit = (rows: RankedRows) =>
  Math.min(65_000, 2 * Math.ceil(rows.ids.length / TEXTS_PER_CHUNK) + 1_024);

/**
 * Serialised rows of an earlier generation brought up to date: the `changed` universities are read again, their
 * texts go into chunks of their own, and every other slot keeps its text where it is. The same texts as a build
 * (tested against one); null, for a build, once the chunks pass `chunkLimit`.
 */
async function patchRankedRows(
  db: DB,
  _key: string,
  rows: RankedRows,
  changed: ReadonlySet<number>,
): Promise<RankedRows | null> {
  if (rows.university.chunks.length + 2 > chunkLimit(rows)) return null;
  const details = await rankedDetailsOf(db, [...changed]);
  const added = [...details.keys()].sort((a, b) => a - b);
  const columns = new ColumnsBuilder();
  added.forEach((id, i) => {
    columns.set(i, details.get(id) as RankedDetails);
  });
  const fresh = columns.build(added.length);
  // Where the changed universities stood, and where each added one goes: the ids are ascending.
  const { runs } = patchById(rows.ids, changed, added);
  const n = patchedLength(runs);
  return {
    ids: mergedNumbers(rows.ids, Int32Array.from(added), runs, n),
    university: mergedColumn(rows.university, fresh.university, runs, n),
    composites: mergedColumn(rows.composites, fresh.composites, runs, n),
    scan: mergedColumn(rows.scan, fresh.scan, runs, n),
    createdAt: mergedColumn(rows.createdAt, fresh.createdAt, runs, n),
    scanCount: mergedNumbers(rows.scanCount, fresh.scanCount, runs, n),
  };
}

/** `old` with `runs` applied: its values copied where they go, `added`'s in their places. */
function mergedNumbers(old: Int32Array, added: Int32Array, runs: readonly PatchRun[], n: number): Int32Array {
  const out = new Int32Array(n);
  for (const run of runs) {
    if ("added" in run) out[run.out] = added[run.added] as number;
    else out.set(old.subarray(run.from, run.to), run.out);
  }
  return out;
}

/** `old` with `runs` applied: its slots copied where they go, `added`'s texts in chunks after its own. */
function mergedColumn(old: TextColumn, added: TextColumn, runs: readonly PatchRun[], n: number): TextColumn {
  const column: TextColumn = {
    chunks: [...old.chunks, ...added.chunks],
    chunk: new Uint16Array(n),
    start: new Int32Array(n),
    end: new Int32Array(n),
  };
  const offset = old.chunks.length;
  for (const run of runs) {
    if ("added" in run) {
      column.chunk[run.out] = (added.chunk[run.added] as number) + offset;
      column.start[run.out] = added.start[run.added] as number;
      column.end[run.out] = added.end[run.added] as number;
      continue;
    }
    column.chunk.set(old.chunk.subarray(run.from, run.to), run.out);
    column.start.set(old.start.subarray(run.from, run.to), run.out);
    column.end.set(old.end.subarray(run.from, run.to), run.out);
  }
  return column;
}

/** After a write of scans, patched with the universities it changed. */
const rankedRowsMemo = generationMemo((db) => buildRankedRows(db), { patch: patchRankedRows });

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
