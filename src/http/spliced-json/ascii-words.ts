/**
 * Constant ASCII and score digits written four bytes a store: one 32-bit `DataView` store in place of four byte
 * stores, for the keys and digits the spliced answers write by the hundred (docs/performance.md, *Keys and digits
 * written a word at a time*). A store may leave up to `WORD_SLACK` bytes of garbage past where the text ends, which
 * the next write covers: a writer that uses them counts `WORD_SLACK` more bytes in its `room` than it ever ends at.
 */
export const WORD_SLACK = 3;

let lastOut: Uint8Array | undefined;
let lastView: DataView | undefined;

/** A view of `out` for word stores. The last one is kept: answers are written into one reused buffer. */
export function wordView(out: Uint8Array): DataView {
  if (out !== lastOut) {
    lastView = new DataView(out.buffer, out.byteOffset, out.byteLength);
    lastOut = out;
  }
  return lastView as DataView;
}

/** The bytes of ASCII `text` as little-endian 32-bit words, the last padded with zeros. */
export function asciiWords(text: string): Int32Array {
  if (/[^\x20-\x7e]/.test(text)) throw new Error("asciiWords takes printable ASCII only");
  const words = new Int32Array(Math.ceil(text.length / 4));
  for (let i = 0; i < text.length; i++)
    words[i >> 2] = (words[i >> 2] as number) | (text.charCodeAt(i) << ((i & 3) * 8));
  return words;
}

/** A constant ASCII text written a word at a time. */
export class AsciiText {
  readonly length: number;
  readonly #words: Int32Array;
  constructor(text: string) {
    this.length = text.length;
    this.#words = asciiWords(text);
  }
  /** Writes the text at `at` (with `WORD_SLACK` bytes of room past it); returns where it ends. */
  write(view: DataView, at: number): number {
    const words = this.#words;
    for (let i = 0; i < words.length; i++) view.setInt32(at + 4 * i, words[i] as number, true);
    return at + this.length;
  }
}

/** Index of `null` in the digit tables: after the 1,001 codes of 0–100. */
const NULL_INDEX = 1001;
/** `JSON.stringify(k / 10)` of each code `k` of 0–1000, then `null`, as a word and a length (four bytes at most). */
const DIGIT_WORDS = new Int32Array(NULL_INDEX + 1);
const DIGIT_LENGTHS = new Uint8Array(NULL_INDEX + 1);
for (let k = 0; k <= NULL_INDEX; k++) {
  const text = k === NULL_INDEX ? "null" : JSON.stringify(k / 10);
  DIGIT_WORDS[k] = (asciiWords(text)[0] as number) | 0;
  DIGIT_LENGTHS[k] = text.length;
}

/**
 * A code of tenths (0–1000, or `NULL_CODE` of `lib/scores/tenths.ts`) as `tenthsJson` says it, written in one store
 * at `at`; returns where it ends. Any other code is written as `null`: codes come from `tenthsCode`, which makes no
 * other.
 */
export function putTenthsWord(view: DataView, code: number, at: number): number {
  const k = code <= 1000 && code >= 0 ? code : NULL_INDEX;
  view.setInt32(at, DIGIT_WORDS[k] as number, true);
  return at + (DIGIT_LENGTHS[k] as number);
}

/** A difference of two codes (-1000–1000) as `JSON.stringify(k / 10)` says it; returns where it ends. */
export function putSignedTenthsWord(view: DataView, k: number, at: number): number {
  if (k < 0) {
    view.setUint8(at, 0x2d); // -
    return putTenthsWord(view, -k, at + 1);
  }
  return putTenthsWord(view, k, at);
}

/** A non-negative integer as its decimal digits at `at` of `out`; returns where they end. */
export function putDigits(out: Uint8Array, n: number, at: number): number {
  let end = at + 1;
  for (let rest = n; rest >= 10; rest = Math.floor(rest / 10)) end++;
  for (let i = end - 1, rest = n; i >= at; i--, rest = Math.floor(rest / 10)) out[i] = 0x30 + (rest % 10);
  return end;
}

/** The most bytes `putInteger` writes: `JSON.stringify` of a number takes at most 24 characters. */
export const INTEGER_ROOM = 24;

/** A number as `JSON.stringify` writes it: a non-negative safe integer by `putDigits`, any other as that text. */
export const putInteger = (out: Buffer, n: number, at: number): number =>
  Number.isSafeInteger(n) && n >= 0 ? putDigits(out, n, at) : at + out.write(JSON.stringify(n), at, "latin1");
