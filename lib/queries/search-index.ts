import { generationMemo } from "../db/generation-memo.ts";
import { keysetBatches } from "../db/keyset-batches.ts";
import type { DB } from "../schema/database.ts";
import { letOthersRun, runSteps, runStepsLettingOthersRun, type Steps } from "../steps/run-steps.ts";
import { type ByteText, byteText } from "../text/byte-search.ts";
import {
  firstOffset,
  REPEAT_MIN,
  type SuffixOrder,
  suffixOrderSteps,
  suffixRange,
  textsInRange,
} from "../text/suffix-order.ts";
import { placedPage, placingCost, type SearchOrder } from "./search-orders.ts";
import { countryCode, type UniversityOrder, universityOrder } from "./university-order.ts";

/**
 * The folded search text of every university in (name, id) order, as one UTF-8 buffer, kept per universities
 * generation (a new scan leaves it as it is), with its suffix order. A key of `REPEAT_MIN` bytes or more is one
 * range of that order: its number of universities comes from the range without a walk of its matches, and its
 * page from the range or, when cheaper, from a byte search that stops at the page (the default order), a walk of
 * another order that searches each text (other sorts), or a search of each text of a country. A shorter key is
 * found by a byte search over the whole text (`Buffer.indexOf`, a native memmem, where the runtime has it). Each
 * way is chosen by what it is expected to cost, with weights measured in docs/performance.md (*Search by the
 * suffix order*). All replace a LIKE over every row of the table (twice: once to count, once for the page). UTF-8
 * is self-synchronising, so a byte match of a key is a match of its characters. Built on the list's order
 * (`universityOrder`) from the texts read in runs, the event loop let run between runs and steps; rebuilt after any
 * write of the table.
 */
export interface SearchIndex extends UniversityOrder {
  /** Every `search_text` in UTF-8, each followed by a NUL byte. */
  bytes: ByteText;
  /** The suffixes of `bytes` in order. */
  suffixes: SuffixOrder;
  /** Byte offset of each university's text in `bytes`, in (name, id) order. */
  starts: Int32Array;
  /** The university whose text holds the first byte of each block of `2 ** BLOCK_BITS` bytes. */
  blocks: Int32Array;
  /** Each university's byte pairs as bits (`pairSignatures`), `SIGNATURE_WORDS` words each, in (name, id) order. */
  signatures: Int32Array;
  /** Per country code, the positions of its universities, ascending. */
  countryRows: Int32Array[];
}

const SEPARATOR = "\u0000";
/** A search text as the index holds it: a NUL inside it (the separator) becomes a space. */
const indexedText = (searchText: string): string => searchText.replaceAll(SEPARATOR, " ");
const BLOCK_BITS = 5;
const encoder = new TextEncoder();

/** The position (in (name, id) order) of the university whose text holds byte `p`. */
function textAt(starts: Int32Array, blocks: Int32Array, p: number): number {
  let row = blocks[p >>> BLOCK_BITS] as number;
  const last = starts.length - 1;
  while (row < last && (starts[row + 1] as number) <= p) row++;
  return row;
}

/** The university of a suffix as the order holds it (`SuffixOrder#offsetBits`): its upper bits, or found by its byte. */
const suffixText = (suffix: number, offsetBits: number, starts: Int32Array, blocks: Int32Array): number =>
  offsetBits > 0 ? suffix >>> offsetBits : textAt(starts, blocks, suffix);

function textBlocks(starts: Int32Array, length: number): Int32Array {
  const blocks = new Int32Array((length >>> BLOCK_BITS) + 1);
  let row = 0;
  for (let b = 0; b < blocks.length; b++) {
    const p = b << BLOCK_BITS;
    while (row + 1 < starts.length && (starts[row + 1] as number) <= p) row++;
    blocks[b] = row;
  }
  return blocks;
}

/**
 * A text's adjacent byte pairs as bits: each pair sets one of `32 * SIGNATURE_WORDS` bits. A text holds a key only if
 * its bits cover the key's, so a walk searches the bytes of the few texts that pass (docs/performance.md, *Sorted
 * searches walked by byte pairs*).
 */
const SIGNATURE_WORDS = 4;
const pairBit = (a: number, b: number): number => Math.imul((a << 8) | b, 0x9e3779b1) >>> 25;

/** The bits of the pairs of `bytes[from, to)` set in `out` from `at` on. */
function putPairBits(bytes: Uint8Array, from: number, to: number, out: Int32Array, at: number): void {
  for (let p = from; p + 1 < to; p++) {
    const bit = pairBit(bytes[p] as number, bytes[p + 1] as number);
    out[at + (bit >>> 5)] = (out[at + (bit >>> 5)] as number) | (1 << (bit & 31));
  }
}

/** Every text's pair bits, from the texts of `bytes` starting at `starts` (each ended by its separator). */
function pairSignatures(bytes: Uint8Array, starts: Int32Array): Int32Array {
  const out = new Int32Array(starts.length * SIGNATURE_WORDS);
  for (let row = 0; row < starts.length; row++) {
    const end = row + 1 < starts.length ? (starts[row + 1] as number) - 1 : bytes.length - 1;
    putPairBits(bytes, starts[row] as number, end, out, row * SIGNATURE_WORDS);
  }
  return out;
}

/** The pair bits of a key. */
function keySignature(needle: Uint8Array): Int32Array {
  const out = new Int32Array(SIGNATURE_WORDS);
  putPairBits(needle, 0, needle.length, out, 0);
  return out;
}

/** Whether the text at `row` may hold a key whose pair bits are `key`: false means it does not. */
function mayHold(signatures: Int32Array, row: number, key: Int32Array): boolean {
  const at = row * SIGNATURE_WORDS;
  for (let w = 0; w < SIGNATURE_WORDS; w++) {
    const bits = key[w] as number;
    if (((signatures[at + w] as number) & bits) !== bits) return false;
  }
  return true;
}

/** A university's row of the index, in (name, id) order. */
export interface SearchIndexRow {
  id: number | string | bigint;
  country: string;
  search_text: string;
}

/**
 * The index of `rows`, given in (name, id) order. `entryBits` as `suffixOrderSteps` takes it: fewer than its 31 only in
 * tests, for the suffix order of texts too many or too long to pack.
 */
export function searchIndexOf(rows: readonly SearchIndexRow[], entryBits?: number): SearchIndex {
  const ids = new Int32Array(rows.length);
  const country = new Uint16Array(rows.length);
  const codes = new Map<string, number>();
  const texts: string[] = new Array(rows.length);
  rows.forEach((r, i) => {
    ids[i] = Number(r.id);
    let code = codes.get(r.country);
    if (code === undefined) {
      code = codes.size;
      codes.set(r.country, code);
    }
    country[i] = code;
    texts[i] = indexedText(r.search_text);
  });
  return runSteps(indexSteps({ ids, country, countryNames: [...codes.keys()] }, texts, entryBits));
}

/**
 * The index of `texts`, each university's search text (without NUL) at its position in `order`, as steps
 * (`lib/steps/run-steps.ts`): the texts encoded in runs, each text's start found from the separators, the suffix
 * order sorted bucket by bucket.
 */
function* indexSteps(
  order: UniversityOrder,
  texts: readonly string[],
  entryBits?: number,
): Steps<SearchIndex> {
  // Encoded in runs of texts, then copied into one array: the same bytes as the whole text encoded at once.
  const parts: Uint8Array[] = [];
  let size = 0;
  for (let i = 0; i < texts.length; i += TEXTS_RUN) {
    const part = encoder.encode(texts.slice(i, i + TEXTS_RUN).join(SEPARATOR) + SEPARATOR);
    parts.push(part);
    size += part.length;
    yield;
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.length;
  }
  const starts = new Int32Array(texts.length);
  for (let p = 0, row = 1; row < texts.length; p++) if (bytes[p] === 0) starts[row++] = p + 1;
  const blocks = textBlocks(starts, bytes.length);
  yield;
  const signatures = pairSignatures(bytes, starts);
  yield;
  const suffixes = yield* suffixOrderSteps(bytes, starts, (p) => textAt(starts, blocks, p), 0, entryBits);
  return {
    bytes: byteText(bytes),
    suffixes,
    starts,
    blocks,
    signatures,
    ids: order.ids,
    country: order.country,
    countryNames: order.countryNames,
    countryRows: byCountry(order.country, order.countryNames.length),
  };
}

/** The positions of each country's universities, ascending. */
function byCountry(country: Uint16Array, countries: number): Int32Array[] {
  const sizes = new Int32Array(countries);
  for (const code of country) sizes[code] = (sizes[code] as number) + 1;
  const rows = Array.from(sizes, (size) => new Int32Array(size));
  const filled = new Int32Array(countries);
  country.forEach((code, row) => {
    (rows[code] as Int32Array)[filled[code] as number] = row;
    filled[code] = (filled[code] as number) + 1;
  });
  return rows;
}

/** Universities whose search texts are read per statement, and encoded at once, while the index is built. */
const TEXTS_RUN = 5_000;

/**
 * Every university's search text at its place in `order`, read in runs by id with the event loop let run between
 * them. A university the order does not hold (added since) is left out; one the runs no longer find keeps an empty
 * text. A write during the build leaves the index a mix of before and after until the next generation's build, as
 * any build that reads in runs (its generation is the one read first).
 */
async function textsInOrder(db: DB, order: UniversityOrder): Promise<string[]> {
  const { ids } = order;
  const texts: string[] = new Array(ids.length).fill("");
  const placeOf = new Map<number, number>();
  for (let place = 0; place < ids.length; place++) placeOf.set(ids[place] as number, place);
  await letOthersRun();
  const read = (after: number) =>
    db
      .selectFrom("universities")
      .select(["id", "search_text"])
      .where("id", ">", after)
      .orderBy("id")
      .limit(TEXTS_RUN)
      .execute();
  for await (const run of keysetBatches(TEXTS_RUN, read)) {
    for (const { id, search_text } of run) {
      const place = placeOf.get(Number(id));
      if (place !== undefined) texts[place] = indexedText(search_text);
    }
    await letOthersRun();
  }
  return texts;
}

/** The index built on the list's order (`universityOrder`), pausing between runs and steps for other requests. */
async function buildIndex(db: DB): Promise<SearchIndex> {
  const order = await universityOrder(db);
  const texts = await textsInOrder(db, order);
  return runStepsLettingOthersRun(indexSteps(order, texts));
}

const indexMemo = generationMemo((db) => buildIndex(db), { follows: "universities" });

/** The index of the current universities generation, built at most once per generation. */
export const searchIndex = (db: DB): Promise<SearchIndex> => indexMemo(db, "");

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

/**
 * The page of `searchPage` in another order of the universities (`order`), for a key of `REPEAT_MIN` bytes or
 * more: found by walking that order and searching each university's text for the key, when its matches are dense
 * enough that the page comes sooner than placing every occurrence of the key's range in the order would cost (the
 * walk is given that cost, and no more); otherwise, or when the walk gives up, by placing them (`placedPage`).
 * Null for a shorter key: the caller then places every match.
 */
export function searchPageInOrder(
  index: SearchIndex,
  key: string,
  order: SearchOrder,
  offset: number,
  limit: number,
): { total: number; rows: number[] } | null {
  const needle = encoder.encode(key);
  if (needle.length < REPEAT_MIN || key.includes(SEPARATOR)) return null;
  const bytes = index.bytes.bytes;
  const { from, to } = suffixRange(index.suffixes, bytes, needle);
  if (from === to) return { total: 0, rows: [] };
  const total = textsInRange(index.suffixes, from, to, needle.length);
  const wanted = Math.min(offset + limit, total);
  const inOrder = order.rows;
  const affordable = Math.floor(((to - from) * PLACE_FOUND + placingCost(to - from, wanted)) / TEXT_SEARCHED);
  if ((wanted * inOrder.length) / total <= affordable) {
    const found = new Matches(offset, offset + limit);
    const walked = Math.min(inOrder.length, affordable);
    const bits = keySignature(needle);
    for (let place = 0; place < walked && found.total < wanted; place++) {
      const row = inOrder[place] as number;
      if (textHolds(index, row, needle, bits)) found.add(row);
    }
    if (found.total >= wanted) return { total, rows: found.rows };
  }
  const { starts, blocks } = index;
  const { rank } = order;
  const { suffixes, offsetBits } = index.suffixes;
  const places = new Int32Array(to - from);
  for (let i = from; i < to; i++)
    places[i - from] = rank[suffixText(suffixes[i] as number, offsetBits, starts, blocks)] as number;
  return { total, rows: placedPage(order, places, offset, wanted) };
}

/** The universities of `rows` (ascending) whose text holds `needle`, each searched in place. */
function rowsHolding(index: SearchIndex, rows: Int32Array, needle: Uint8Array, out: Matches): Matches {
  const bits = keySignature(needle);
  for (const row of rows) if (textHolds(index, row, needle, bits)) out.add(row);
  return out;
}

/**
 * Whether the text of the university at `row` holds `needle`, whose pair bits are `bits` (`keySignature`): its bytes
 * are searched only when its pair bits cover them.
 */
function textHolds(index: SearchIndex, row: number, needle: Uint8Array, bits: Int32Array): boolean {
  if (!mayHold(index.signatures, row, bits)) return false;
  const { starts } = index;
  const bytes = index.bytes.bytes;
  // The text ends at its separator: the next text's start less one, or the last byte.
  const end = row + 1 < starts.length ? (starts[row + 1] as number) - 1 : bytes.length - 1;
  const first = needle[0] as number;
  const last = end - needle.length;
  for (let p = starts[row] as number; p <= last; p++) {
    if (bytes[p] !== first) continue;
    let k = 1;
    while (k < needle.length && bytes[p + k] === needle[k]) k++;
    if (k === needle.length) return true;
  }
  return false;
}

function search(
  index: SearchIndex,
  key: string,
  countryName: string | undefined,
  out: Matches,
): { total: number; rows: number[] } {
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
  // A country's universities searched one by one, when they are fewer than what the whole text would cost.
  const inCountry = country === undefined ? undefined : index.countryRows[country];
  const walkCountry = (cost: number) => inCountry !== undefined && inCountry.length * TEXT_SEARCHED < cost;
  if (needle.length < REPEAT_MIN) {
    if (walkCountry(index.bytes.bytes.length * SCAN_BYTE))
      return rowsHolding(index, inCountry as Int32Array, needle, out);
    scanMatches(index.bytes, index, needle, country, out, Number.POSITIVE_INFINITY);
    return out;
  }
  const { from, to } = suffixRange(index.suffixes, index.bytes.bytes, needle);
  if (from === to) return out;
  if (walkCountry(rangeCost(to - from))) return rowsHolding(index, inCountry as Int32Array, needle, out);
  if (country === undefined && Number.isFinite(out.to)) {
    const total = textsInRange(index.suffixes, from, to, needle.length);
    const scanned = pageByScan(index, needle, from, to, total, out);
    if (scanned !== null) {
      scanned.total = total;
      return scanned;
    }
  }
  const rows = rowsInRange(index, from, to, country);
  return { total: rows.length, rows: Number.isFinite(out.to) ? rows.slice(out.from, out.to) : rows };
}

/** Up to this many occurrences are ordered by a sort; more are marked on a map of every university. */
const SORTED_RANGE = 2048;
/** What reading a range of `occurrences` suffixes and ordering their universities costs, in nanoseconds. */
const rangeCost = (occurrences: number) =>
  occurrences <= SORTED_RANGE ? occurrences * SORTED_ENTRY : MARKED_RANGE + occurrences * MARKED_ENTRY;
/** What a byte search costs, in nanoseconds: a byte passed over, a match found. */
const SCAN_BYTE = 0.1;
const SCAN_MATCH = 30;
const SORTED_ENTRY = 27;
const MARKED_ENTRY = 10;
const MARKED_RANGE = 40_000;
/**
 * What searching one university's text costs, its pair bits first, in nanoseconds: 20–36 measured in walks, weighed
 * more since a walk that gives up is paid as well as the placing after it.
 */
const TEXT_SEARCHED = 50;
/** What finding the place of one occurrence of a key costs (its text, then its rank in the order), in nanoseconds. */
const PLACE_FOUND = 7;

/**
 * The page `out` asks for, found by a byte search that starts at the key's first occurrence and stops at the
 * page's last match, when that costs less than reading the key's range (`occurrences` suffixes, `total`
 * universities): a key's matches tend to sit together (names sorted by name share their first words), or to be
 * dense. The search is given the text the range's cost would pay for and no more, and null is returned when the
 * page is not within it. Weights measured in docs/performance.md.
 */
function pageByScan(
  index: SearchIndex,
  needle: Uint8Array,
  from: number,
  to: number,
  total: number,
  out: Matches,
): Matches | null {
  const wanted = Math.min(out.to, total);
  const occurrences = to - from;
  const affordable = (rangeCost(occurrences) - wanted * SCAN_MATCH) / SCAN_BYTE;
  if (affordable <= 0) return null;
  const bytes = index.bytes.bytes;
  const first = firstOffset(index.suffixes, from, to);
  const end = first + affordable;
  const text = end >= bytes.length ? index.bytes : byteText(bytes.subarray(0, Math.ceil(end)));
  const found = new Matches(out.from, out.to);
  scanMatches(text, index, needle, undefined, found, wanted, first);
  return found.total >= wanted ? found : null;
}

/** The positions of the universities (in `country`, if given) holding the suffixes `[from, to)`, ascending, each once. */
function rowsInRange(index: SearchIndex, from: number, to: number, country: number | undefined): number[] {
  const { starts, blocks } = index;
  const countries = index.country;
  const { suffixes, offsetBits } = index.suffixes;
  const rows: number[] = [];
  if (to - from <= SORTED_RANGE) {
    const found = new Int32Array(to - from);
    for (let i = from; i < to; i++)
      found[i - from] = suffixText(suffixes[i] as number, offsetBits, starts, blocks);
    found.sort();
    let before = -1;
    for (const row of found) {
      if (row !== before && (country === undefined || countries[row] === country)) rows.push(row);
      before = row;
    }
    return rows;
  }
  const marks = new Uint8Array(starts.length);
  for (let i = from; i < to; i++) marks[suffixText(suffixes[i] as number, offsetBits, starts, blocks)] = 1;
  for (let row = 0; row < marks.length; row++) {
    if (marks[row] === 1 && (country === undefined || countries[row] === country)) rows.push(row);
  }
  return rows;
}

/** The matches of `needle` by a byte search over `text` from byte `start`, stopping once `stop` of them are counted. */
function scanMatches(
  text: ByteText,
  index: SearchIndex,
  needle: Uint8Array,
  country: number | undefined,
  out: Matches,
  stop: number,
  start = 0,
): void {
  const { starts, blocks } = index;
  const countries = index.country;
  for (let p = text.indexOf(needle, start); p !== -1 && out.total < stop; ) {
    const row = textAt(starts, blocks, p);
    if (country === undefined || countries[row] === country) out.add(row);
    // One match per university: go on from the start of the next one.
    if (row + 1 >= starts.length) break;
    p = text.indexOf(needle, starts[row + 1] as number);
  }
}
