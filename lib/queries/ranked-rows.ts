import type { DB } from "../schema/database.ts";
import { isoDate } from "../time/format.ts";
import { generationMemo } from "./generation-memo.ts";
import { prepared } from "./prepared.ts";

/**
 * The details a ranking or leaderboard row shows of every university with a latest completed scan, serialised
 * once per data generation. A page then costs a lookup and a concatenation per row: no read of the database, no
 * serialisation of objects. Each part is a run of one long string (offsets in a typed array): about 240 bytes a
 * university and no object per row for the collector to trace.
 */
export interface RankedRows {
  /** University ids, ascending; a university's slot is its index here. */
  ids: Int32Array;
  /** `"id":…,"domain":…,"name":…,"country":…`: the university reference without its braces. */
  university: TextColumn;
  /** `,"overall_score":…,"webometrics_score":…,"technical_score":…,"research_score":…,"presence_score":…}`. */
  composites: TextColumn;
  /** `,"scan_id":…,"scan_date":"YYYY-MM-DD"}`: the latest scan. */
  scan: TextColumn;
}

/** Many short texts as one string and their end offsets. */
export interface TextColumn {
  text: string;
  ends: Int32Array;
}

export function textAt(column: TextColumn, slot: number): string {
  return column.text.slice(slot === 0 ? 0 : column.ends[slot - 1], column.ends[slot]);
}

/** Builds a TextColumn a chunk of texts at a time, so the short texts become garbage as they are joined. */
class TextColumnBuilder {
  readonly #chunks: string[] = [];
  #ends = new Int32Array(1024);
  #count = 0;
  #end = 0;
  add(parts: string[]): void {
    if (this.#count + parts.length > this.#ends.length) {
      const grown = new Int32Array(Math.max(this.#ends.length * 2, this.#count + parts.length));
      grown.set(this.#ends);
      this.#ends = grown;
    }
    for (const part of parts) {
      this.#end += part.length;
      this.#ends[this.#count++] = this.#end;
    }
    this.#chunks.push(parts.join(""));
  }
  build(): TextColumn {
    return { text: this.#chunks.join(""), ends: this.#ends.slice(0, this.#count) };
  }
}

const num = (v: unknown) => JSON.stringify(v == null ? null : Number(v));

/** Rows read per statement: small batches keep the garbage of a build small (a build reads every ranked row). */
const CHUNK = 2048;

const chunkQuery = prepared((db, arg: (i: number) => number) =>
  db
    .selectFrom("latest_scans as l")
    .innerJoin("universities as u", "u.id", "l.university_id")
    .select([
      "u.id",
      "u.domain",
      "u.name",
      "u.country",
      "l.overall_score",
      "l.webo_composite_score",
      "l.tech_composite_score",
      "l.research_composite_score",
      "l.presence_composite_score",
      "l.scan_id",
      "l.completed_at",
    ])
    .where("l.university_id", ">", arg(0))
    .orderBy("l.university_id")
    .limit(CHUNK),
);

async function buildRankedRows(db: DB): Promise<RankedRows> {
  const ids: number[] = [];
  const university = new TextColumnBuilder();
  const composites = new TextColumnBuilder();
  const scan = new TextColumnBuilder();
  let after = 0;
  for (;;) {
    const rows = await chunkQuery(db, [after]);
    const n = rows.length;
    const u: string[] = new Array(n);
    const c: string[] = new Array(n);
    const s: string[] = new Array(n);
    for (let i = 0; i < n; i++) {
      const r = rows[i]!;
      const id = Number(r.id);
      ids.push(id);
      u[i] =
        `"id":${id},"domain":${JSON.stringify(r.domain)},"name":${JSON.stringify(r.name)},"country":${JSON.stringify(r.country)}`;
      c[i] =
        `,"overall_score":${num(r.overall_score)},"webometrics_score":${num(r.webo_composite_score)},"technical_score":${num(
          r.tech_composite_score,
        )},"research_score":${num(r.research_composite_score)},"presence_score":${num(r.presence_composite_score)}}`;
      s[i] = `,"scan_id":${Number(r.scan_id)},"scan_date":${JSON.stringify(isoDate(String(r.completed_at)))}}`;
    }
    university.add(u);
    composites.add(c);
    scan.add(s);
    if (n < CHUNK) break;
    after = ids[ids.length - 1]!;
  }
  return {
    ids: Int32Array.from(ids),
    university: university.build(),
    composites: composites.build(),
    scan: scan.build(),
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
