import { firstAtLeast } from "../sorted/first-at-least.ts";
import { runSteps, type Steps } from "../steps/run-steps.ts";

/**
 * A suffix array over texts kept one after another in one byte array, each followed by a separator byte: every
 * offset where a character starts (not a UTF-8 continuation byte, not the separator), sorted by the bytes from it
 * to its text's separator. The occurrences of a key are then one range of it, found by two binary searches, so
 * a key's number of occurrences costs no walk of them. What a range does not say by its size is how many texts
 * it holds (a text may hold a key twice); `repeats` says that: for each suffix, whether the previous suffix of
 * the same text in this order shares at least `REPEAT_MIN` bytes with it, and how many. Two occurrences of a key
 * of `m` bytes in one text are next to each other among that text's suffixes in the range exactly when they share
 * `m` bytes, so the texts in a range are its size less the repeats inside it that share `m` bytes or more. The
 * least offset of a range (where a key first occurs) comes from a minimum kept per 64 suffixes.
 */
export interface SuffixOrder {
  /**
   * The suffixes in the order of their bytes (suffixes equal up to their ends in any order), each as its text's
   * number above `offsetBits` bits and its offset in that text below them (`suffixByte`, `suffixText`): its text
   * without a search of the texts' starts. With `offsetBits` 0 (texts too many or too long for 31 bits), byte offsets.
   */
  suffixes: Int32Array;
  /** How many low bits of a suffix hold its offset in its text; 0 where the suffixes are byte offsets. */
  offsetBits: number;
  /** Where each text starts in the bytes. */
  starts: Int32Array;
  /** Places in `suffixes`, ascending, whose suffix shares `REPEAT_MIN` bytes or more with its text's previous one. */
  repeats: Int32Array;
  /** How many bytes each of those shares (at most 65,535). */
  repeatLengths: Uint16Array;
  /** The least suffix (so the least offset) of each block of `2 ** MINIMA_BITS` suffixes. */
  minima: Int32Array;
  /**
   * Where the suffixes of each first two bytes begin (65,537 places): those of pair `k` are `[pairStarts[k],
   * pairStarts[k + 1])`, so a key's searches start within its pair's (docs/performance.md).
   */
  pairStarts: Int32Array;
}

const MINIMA_BITS = 6;

/** The bits a suffix's entry may use: 31, so that entries stay positive. */
const ENTRY_BITS = 31;

/** The shortest shared length `repeats` keeps; ranges of shorter keys cannot tell their texts. */
export const REPEAT_MIN = 3;

const SMALL = 12;

const startsCharacter = (b: number, separator: number) => b !== separator && (b & 0xc0) !== 0x80;

/**
 * Sorts `a[lo..hi)` by the bytes of their suffixes from `depth` on: three-way radix quicksort (Bentley and
 * Sedgewick), which compares each shared prefix once. Every suffix ends at a separator, which is below every other
 * byte in the order.
 */
function sortSuffixes(
  bytes: Uint8Array,
  a: Int32Array,
  lo0: number,
  hi0: number,
  depth0: number,
  separator: number,
) {
  const stack: number[] = [lo0, hi0, depth0];
  const key = (p: number, d: number) => {
    const b = bytes[p + d] as number;
    return b === separator ? -1 : b;
  };
  while (stack.length > 0) {
    const depth = stack.pop() as number;
    let hi = stack.pop() as number;
    const lo = stack.pop() as number;
    while (hi - lo > 1) {
      if (hi - lo <= SMALL) {
        insertionSort(bytes, a, lo, hi, depth, separator);
        break;
      }
      const pivot = key(a[(lo + hi) >>> 1] as number, depth);
      // a[lo..lt) below the pivot, a[lt..i) equal, a[gt..hi) above.
      let lt = lo;
      let i = lo;
      let gt = hi;
      while (i < gt) {
        const v = a[i] as number;
        const k = key(v, depth);
        if (k < pivot) {
          a[i++] = a[lt] as number;
          a[lt++] = v;
        } else if (k > pivot) {
          a[i] = a[--gt] as number;
          a[gt] = v;
        } else i++;
      }
      if (pivot !== -1 && gt - lt > 1) stack.push(lt, gt, depth + 1);
      if (hi - gt > 1) stack.push(gt, hi, depth);
      hi = lt;
    }
  }
}

/** Compares two suffixes from `depth`: negative, zero (equal up to their separators) or positive. */
function compareFrom(bytes: Uint8Array, p: number, q: number, depth: number, separator: number): number {
  for (let d = depth; ; d++) {
    const x = bytes[p + d] as number;
    const y = bytes[q + d] as number;
    if (x === y) {
      if (x === separator) return 0;
      continue;
    }
    if (x === separator) return -1;
    if (y === separator) return 1;
    return x - y;
  }
}

function insertionSort(bytes: Uint8Array, a: Int32Array, lo: number, hi: number, depth: number, sep: number) {
  for (let i = lo + 1; i < hi; i++) {
    const v = a[i] as number;
    let j = i;
    while (j > lo && compareFrom(bytes, a[j - 1] as number, v, depth, sep) > 0) {
      a[j] = a[j - 1] as number;
      j--;
    }
    a[j] = v;
  }
}

/** Bytes shared by the suffixes at `p` and `q` (which differ before any separator, being of one text). */
function sharedLength(bytes: Uint8Array, p: number, q: number): number {
  let d = 0;
  while (bytes[p + d] === bytes[q + d]) d++;
  return d;
}

/**
 * The suffix order of `bytes`, texts each ending with `separator` and starting at `starts`; `textOf` gives the
 * text (0 to `starts.length - 1`) that holds a byte offset.
 */
export function suffixOrder(
  bytes: Uint8Array,
  starts: Int32Array,
  textOf: (offset: number) => number,
  separator = 0,
  entryBits = ENTRY_BITS,
): SuffixOrder {
  return runSteps(suffixOrderSteps(bytes, starts, textOf, separator, entryBits));
}

/** The byte offset of a suffix as `suffixes` holds it. */
export const suffixByte = (order: SuffixOrder, suffix: number): number =>
  order.offsetBits === 0
    ? suffix
    : (order.starts[suffix >>> order.offsetBits] as number) + (suffix & ((1 << order.offsetBits) - 1));

/** How many bits hold the numbers 0 to `most`. */
const bitsFor = (most: number): number => (most <= 0 ? 1 : 32 - Math.clz32(most));

/** The bits of a suffix's offset in its text when a text's number and that offset fit in `entryBits`, else 0. */
function offsetBitsFor(starts: Int32Array, length: number, entryBits: number): number {
  let longest = 0;
  for (let t = 0; t < starts.length; t++) {
    const end = t + 1 < starts.length ? (starts[t + 1] as number) : length;
    longest = Math.max(longest, end - (starts[t] as number));
  }
  const offsetBits = bitsFor(longest - 1);
  return bitsFor(starts.length - 1) + offsetBits <= entryBits ? offsetBits : 0;
}

/** Suffixes sorted, or bytes or suffixes walked, between two pauses of `suffixOrderSteps`: a few ms of work. */
const STEP = 200_000;

/**
 * `suffixOrder` as steps (`lib/steps/run-steps.ts`), pausing about every `STEP` suffixes or bytes of work. `entryBits`
 * below 31 only in tests, to make the form of texts too many or too long to pack.
 */
export function* suffixOrderSteps(
  bytes: Uint8Array,
  starts: Int32Array,
  textOf: (offset: number) => number,
  separator = 0,
  entryBits = ENTRY_BITS,
): Steps<SuffixOrder> {
  // Bucket by the first two bytes (counting sort), then sort each bucket from its third byte. The walks are made in
  // runs of `STEP` by plain functions, each a few ms, with a pause between runs.
  const counts = new Int32Array(65537);
  let n = 0;
  for (let from = 0; from < bytes.length; from += STEP) {
    n += countPairs(bytes, counts, from, Math.min(bytes.length, from + STEP), separator);
    yield;
  }
  for (let k = 1; k <= 65536; k++) counts[k] = (counts[k] as number) + (counts[k - 1] as number);
  const suffixes = new Int32Array(n);
  const at = counts.slice(0, 65536);
  for (let from = 0; from < bytes.length; from += STEP) {
    placeSuffixes(bytes, suffixes, at, from, Math.min(bytes.length, from + STEP), separator);
    yield;
  }
  let sorted = 0;
  for (let k = 0; k < 65536; k++) {
    const lo = counts[k] as number;
    const hi = counts[k + 1] as number;
    // A bucket whose second byte is the separator holds suffixes of one character: all equal.
    if (hi - lo > 1 && (k & 0xff) !== separator) sortSuffixes(bytes, suffixes, lo, hi, 2, separator);
    sorted += hi - lo;
    if (sorted >= STEP) {
      sorted = 0;
      yield;
    }
  }
  // Each suffix against the previous one of its text in this order.
  const last = new Int32Array(starts.length).fill(-1);
  const repeats: number[] = [];
  const lengths: number[] = [];
  for (let from = 0; from < n; from += STEP) {
    findRepeats(bytes, suffixes, textOf, last, repeats, lengths, from, Math.min(n, from + STEP));
    yield;
  }
  // Each suffix as its text and its offset there; their order is the offsets' order, so the minima hold either.
  const offsetBits = offsetBitsFor(starts, bytes.length, entryBits);
  if (offsetBits > 0) {
    for (let from = 0; from < n; from += STEP) {
      packSuffixes(suffixes, starts, textOf, offsetBits, from, Math.min(n, from + STEP));
      yield;
    }
  }
  const minima = new Int32Array((n >>> MINIMA_BITS) + 1).fill(0x7fffffff);
  for (let i = 0; i < n; i++) {
    const block = i >>> MINIMA_BITS;
    minima[block] = Math.min(minima[block] as number, suffixes[i] as number);
  }
  yield;
  return {
    suffixes,
    offsetBits,
    starts,
    repeats: Int32Array.from(repeats),
    repeatLengths: Uint16Array.from(lengths),
    minima,
    pairStarts: counts,
  };
}

/** Rewrites the byte offsets `suffixes[from..to)` as their text's number above `offsetBits` bits and the offset in it. */
function packSuffixes(
  suffixes: Int32Array,
  starts: Int32Array,
  textOf: (offset: number) => number,
  offsetBits: number,
  from: number,
  to: number,
) {
  for (let i = from; i < to; i++) {
    const p = suffixes[i] as number;
    const text = textOf(p);
    suffixes[i] = (text << offsetBits) | (p - (starts[text] as number));
  }
}

/** Counts the suffixes starting in `bytes[from..to)` by their first two bytes (at `counts[pair + 1]`); their number. */
function countPairs(
  bytes: Uint8Array,
  counts: Int32Array,
  from: number,
  to: number,
  separator: number,
): number {
  let n = 0;
  for (let p = from; p < to; p++) {
    const b = bytes[p] as number;
    if (!startsCharacter(b, separator)) continue;
    n++;
    const k = ((b << 8) | (bytes[p + 1] as number)) + 1;
    counts[k] = (counts[k] as number) + 1;
  }
  return n;
}

/** Puts each suffix starting in `bytes[from..to)` at the next place of its pair's bucket (`at`). */
function placeSuffixes(
  bytes: Uint8Array,
  suffixes: Int32Array,
  at: Int32Array,
  from: number,
  to: number,
  separator: number,
) {
  for (let p = from; p < to; p++) {
    const b = bytes[p] as number;
    if (!startsCharacter(b, separator)) continue;
    const k = (b << 8) | (bytes[p + 1] as number);
    suffixes[at[k] as number] = p;
    at[k] = (at[k] as number) + 1;
  }
}

/** The repeats among the places `[from, to)`: each suffix against the previous one of its text (`last`). */
function findRepeats(
  bytes: Uint8Array,
  suffixes: Int32Array,
  textOf: (offset: number) => number,
  last: Int32Array,
  repeats: number[],
  lengths: number[],
  from: number,
  to: number,
) {
  for (let i = from; i < to; i++) {
    const p = suffixes[i] as number;
    const text = textOf(p);
    const before = last[text] as number;
    last[text] = p;
    if (before === -1) continue;
    const shared = sharedLength(bytes, before, p);
    if (shared >= REPEAT_MIN) {
      repeats.push(i);
      lengths.push(Math.min(shared, 65535));
    }
  }
}

/** Compares the suffix at `p` with `key` over the key's length: negative, zero (it starts with the key) or positive. */
function compareKey(bytes: Uint8Array, p: number, key: Uint8Array, separator: number): number {
  for (let k = 0; k < key.length; k++) {
    const b = bytes[p + k] as number;
    const c = key[k] as number;
    if (b !== c) return b === separator ? -1 : b - c;
  }
  return 0;
}

/** The places `[from, to)` of the suffixes that start with `key` (a key without the separator). */
export function suffixRange(
  order: SuffixOrder,
  bytes: Uint8Array,
  key: Uint8Array,
  separator = 0,
): { from: number; to: number } {
  const { suffixes } = order;
  // Every suffix that starts with the key starts with its first two bytes.
  const pair = key.length >= 2 ? ((key[0] as number) << 8) | (key[1] as number) : -1;
  let lo = pair < 0 ? 0 : (order.pairStarts[pair] as number);
  let hi = pair < 0 ? suffixes.length : (order.pairStarts[pair + 1] as number);
  // The least place seen past the key: where the second search may stop.
  let past = hi;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const c = compareKey(bytes, suffixByte(order, suffixes[mid] as number), key, separator);
    if (c < 0) lo = mid + 1;
    else {
      if (c > 0 && mid < past) past = mid;
      hi = mid;
    }
  }
  const from = lo;
  hi = past;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareKey(bytes, suffixByte(order, suffixes[mid] as number), key, separator) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return { from, to: lo };
}

/**
 * How many texts hold the suffixes `[from, to)` of a key of `keyLength` bytes (at least `REPEAT_MIN`): the range
 * less its repeats of that length or more.
 */
export function textsInRange(order: SuffixOrder, from: number, to: number, keyLength: number): number {
  const { repeats, repeatLengths } = order;
  let texts = to - from;
  const end = firstAtLeast(repeats, to);
  for (let j = firstAtLeast(repeats, from); j < end; j++) {
    if ((repeatLengths[j] as number) >= keyLength) texts--;
  }
  return texts;
}

/** The least offset among the suffixes `[from, to)`: where a key whose range that is first occurs. */
export function firstOffset(order: SuffixOrder, from: number, to: number): number {
  const { suffixes, minima } = order;
  let least = Number.POSITIVE_INFINITY;
  const size = 1 << MINIMA_BITS;
  let i = from;
  for (; i < to && (i & (size - 1)) !== 0; i++) least = Math.min(least, suffixes[i] as number);
  for (; i + size <= to; i += size) least = Math.min(least, minima[i >>> MINIMA_BITS] as number);
  for (; i < to; i++) least = Math.min(least, suffixes[i] as number);
  return least === Number.POSITIVE_INFINITY ? least : suffixByte(order, least);
}
