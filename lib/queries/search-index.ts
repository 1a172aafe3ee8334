import { generationMemo } from "../db/generation-memo.ts";
import type { DB } from "../schema/database.ts";
import { type ByteText, byteText } from "../text/byte-search.ts";
import {
  rarestTrigram,
  TRIGRAM,
  type TrigramPositions,
  trigramPositions,
} from "../text/trigram-positions.ts";
import { countryCode, type UniversityOrder } from "./university-order.ts";

/**
 * The folded search text of every university in (name, id) order, as one UTF-8 buffer, kept per universities
 * generation (a new scan leaves it as it is), with the positions of its byte trigrams. A key of three bytes or
 * more is found through the positions of its rarest trigram; a shorter one by a byte search over the whole text
 * (`Buffer.indexOf`, a native memmem, where the runtime has it; see docs/performance.md). Either replaces a LIKE
 * over every row of the table (twice: once to count, once for the page), and the matches come out already in the
 * default order of the universities list. UTF-8 is self-synchronising, so a byte match of a key is a match of its
 * characters. Built by one ordered read of the table; rebuilt after any write of the table.
 */
export interface SearchIndex extends UniversityOrder {
  /** Every `search_text` in UTF-8, each followed by a NUL byte. */
  bytes: ByteText;
  /** Where each trigram of `bytes` occurs. */
  trigrams: TrigramPositions;
  /** Byte offset of each university's text in `bytes`, in (name, id) order. */
  starts: Int32Array;
}

const SEPARATOR = "\u0000";
const encoder = new TextEncoder();

async function buildIndex(db: DB): Promise<SearchIndex> {
  const rows = await db
    .selectFrom("universities")
    .select(["id", "country", "search_text"])
    .orderBy("name")
    .orderBy("id")
    .execute();
  const starts = new Int32Array(rows.length);
  const ids = new Int32Array(rows.length);
  const country = new Uint16Array(rows.length);
  const codes = new Map<string, number>();
  const parts: string[] = new Array(rows.length);
  let offset = 0;
  rows.forEach((r, i) => {
    const text = r.search_text.replaceAll(SEPARATOR, " ");
    starts[i] = offset;
    ids[i] = Number(r.id);
    let code = codes.get(r.country);
    if (code === undefined) {
      code = codes.size;
      codes.set(r.country, code);
    }
    country[i] = code;
    parts[i] = text;
    offset += encoder.encode(text).length + 1;
  });
  const bytes = encoder.encode(parts.join(SEPARATOR) + SEPARATOR);
  const countryNames = [...codes.keys()];
  return { bytes: byteText(bytes), trigrams: trigramPositions(bytes), starts, ids, country, countryNames };
}

const indexMemo = generationMemo((db) => buildIndex(db), { follows: "universities" });

/** The index of the current universities generation, built at most once per generation. */
export const searchIndex = (db: DB): Promise<SearchIndex> => indexMemo(db, "");

/** The row whose text holds byte `p`: the last start at or before it, searching from row `from` on. */
function rowAt(starts: Int32Array, p: number, from: number): number {
  // Matches are often in the next few rows: walk a little before searching.
  const near = Math.min(from + 8, starts.length);
  let lo = from;
  while (lo < near && (starts[lo] as number) <= p) lo++;
  if (lo < near) return lo - 1;
  let hi = starts.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((starts[mid] as number) <= p) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

/** Matches counted, and the positions of those from `from` (inclusive) to `to` (exclusive) kept. */
class Matches {
  total = 0;
  readonly rows: number[] = [];
  constructor(
    readonly from: number,
    readonly to: number,
  ) {}
  add(row: number): void {
    if (this.total >= this.from && this.total < this.to) this.rows.push(row);
    this.total++;
  }
}

/** Positions (in (name, id) order) of the universities whose search text contains `key`, optionally in `country`. */
export function searchMatches(index: SearchIndex, key: string, country?: string): number[] {
  return search(index, key, country, new Matches(0, Number.POSITIVE_INFINITY)).rows;
}

/** The number of matches of `searchMatches`, and the positions of `limit` of them from `offset` on. */
export function searchPage(
  index: SearchIndex,
  key: string,
  country: string | undefined,
  offset: number,
  limit: number,
): { total: number; rows: number[] } {
  return search(index, key, country, new Matches(offset, offset + limit));
}

function search(index: SearchIndex, key: string, countryName: string | undefined, out: Matches): Matches {
  const country = countryName === undefined ? undefined : countryCode(index, countryName);
  if (key.includes(SEPARATOR) || country === -1) return out;
  // A key that folds to nothing (only combining marks) is in every text, as in a LIKE.
  if (key.length === 0) {
    for (let row = 0; row < index.ids.length; row++) {
      if (country === undefined || index.country[row] === country) out.add(row);
    }
    return out;
  }
  const needle = encoder.encode(key);
  if (needle.length < TRIGRAM) scanMatches(index, needle, country, out);
  else trigramMatches(index, needle, country, out);
  return out;
}

/** The matches of a key of a trigram or more: its rarest trigram's positions, the rest of the key compared in place. */
function trigramMatches(
  index: SearchIndex,
  needle: Uint8Array,
  country: number | undefined,
  out: Matches,
): void {
  const rarest = rarestTrigram(index.trigrams, needle);
  if (rarest === null) return;
  const { starts } = index;
  const countries = index.country;
  const bytes = index.bytes.bytes;
  const deltas = index.trigrams.deltas;
  const { list, shift } = rarest;
  const length = needle.length;
  const rows = starts.length;
  let row = 0;
  // Offsets below `next` belong to a university already matched.
  let next = 0;
  let position = 0;
  for (let i = list.from; i < list.to; ) {
    // The next offset: its LEB128 difference from the one before.
    let b = deltas[i++] as number;
    let d = b & 0x7f;
    for (let bits = 7; b >= 0x80; bits += 7) {
      b = deltas[i++] as number;
      d |= (b & 0x7f) << bits;
    }
    position += d;
    const at = position - shift;
    if (at < next || at < 0 || at + length > bytes.length) continue;
    // The trigram at `shift` matches by construction: compare the bytes before and after it.
    let k = 0;
    while (k < shift && bytes[at + k] === needle[k]) k++;
    if (k < shift) continue;
    k = shift + TRIGRAM;
    while (k < length && bytes[at + k] === needle[k]) k++;
    if (k < length) continue;
    row = rowAt(starts, at, row);
    next = row + 1 < rows ? (starts[row + 1] as number) : bytes.length;
    if (country === undefined || countries[row] === country) out.add(row);
  }
}

/** The matches of a key shorter than a trigram: a byte search over the whole text. */
function scanMatches(
  index: SearchIndex,
  needle: Uint8Array,
  country: number | undefined,
  out: Matches,
): void {
  const { bytes, starts } = index;
  const countries = index.country;
  let row = 0;
  for (let p = bytes.indexOf(needle); p !== -1; ) {
    row = rowAt(starts, p, row);
    if (country === undefined || countries[row] === country) out.add(row);
    // One match per university: go on from the start of the next one.
    if (row + 1 >= starts.length) break;
    p = bytes.indexOf(needle, starts[row + 1] as number);
  }
}
