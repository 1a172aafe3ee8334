import { NULL_CODE } from "../../../lib/scores/tenths.ts";
import { utf8Write } from "./answer-body.ts";
import { JsonWriter } from "./json-text.ts";

/** The JSON of a code of tenths (`lib/scores/tenths.ts`): the score `k / 10` as `JSON.stringify` writes it, or `null`. */
export const tenthsJson = (code: number): string => (code === NULL_CODE ? "null" : JSON.stringify(code / 10));

/** `tenthsJson(code)` written as ASCII at `at` of `out` (four bytes at most); returns where it ends. */
export function writeTenths(code: number, out: Uint8Array, at: number): number {
  if (code === NULL_CODE) {
    out[at++] = 0x6e; // n
    out[at++] = 0x75; // u
    out[at++] = 0x6c; // l
    out[at++] = 0x6c; // l
    return at;
  }
  return writeDigits(code, out, at);
}

/**
 * `JSON.stringify(k / 10)` of tenths `k` in -1000–1000 (a difference of two codes) written as ASCII at `at` of
 * `out` (five bytes at most); returns where it ends.
 */
export function writeSignedTenths(k: number, out: Uint8Array, at: number): number {
  if (k >= 0) return writeDigits(k, out, at);
  out[at++] = 0x2d; // -
  return writeDigits(-k, out, at);
}

/** Tenths 0–1000 as `k / 10` prints: `100`, `99.9`, `5`, `0.5`. */
function writeDigits(k: number, out: Uint8Array, at: number): number {
  const whole = (k / 10) | 0;
  const tenth = k - whole * 10;
  if (whole === 100) {
    out[at++] = 0x31;
    out[at++] = 0x30;
    out[at++] = 0x30;
  } else if (whole >= 10) {
    out[at++] = 0x30 + ((whole / 10) | 0);
    out[at++] = 0x30 + (whole % 10);
  } else out[at++] = 0x30 + whole;
  if (tenth !== 0) {
    out[at++] = 0x2e; // .
    out[at++] = 0x30 + tenth;
  }
  return at;
}

/** Where `TenthsMembers` write: room for every list's keys and the longest values, reused by every call. */
let scratch = Buffer.alloc(4096);

/**
 * `"name":value,…`: the members of a JSON object whose values are codes of tenths, for one list of names. The text
 * is written as bytes in one buffer (the keys copied, a value's digits from its code) and read out as one flat
 * string: fewer memory reads than joining a key and a value text per member (docs/performance.md); or written
 * straight into an answer's bytes (`write`). The same text as `JSON.stringify` of `k / 10`
 * (test/unit/tenths-members.test.ts).
 */
export class TenthsMembers {
  readonly #keys: Uint8Array;
  /** Where each name's key ends in `#keys`. */
  readonly #ends: Int32Array;

  constructor(names: readonly string[]) {
    const keys = names.map((name, i) => `${i === 0 ? "" : ","}${JSON.stringify(name)}:`);
    // The text is read out as Latin-1, byte for character.
    if (keys.some((key) => /[^\x20-\x7e]/.test(key))) throw new Error("TenthsMembers takes ASCII names only");
    this.#keys = new TextEncoder().encode(keys.join(""));
    this.#ends = new Int32Array(names.length);
    let end = 0;
    for (const [i, key] of keys.entries()) {
      end += key.length;
      this.#ends[i] = end;
    }
    // Four bytes at most a value (`null`, `99.9`, `100`).
    const room = this.#keys.length + 4 * names.length;
    if (room > scratch.length) scratch = Buffer.alloc(room);
  }

  /** The most bytes `write` writes: the keys, and four bytes a value. */
  get room(): number {
    return this.#keys.length + 4 * this.#ends.length;
  }

  /** The members of the codes `codes[from]` to `codes[from + names.length - 1]`, in the names' order. */
  text(codes: ArrayLike<number>, from: number): string {
    return scratch.toString("latin1", 0, this.write(codes, from, scratch, 0));
  }

  /** `text`'s bytes written at `at` of `out` (which has `room` bytes there); returns where they end. */
  write(codes: ArrayLike<number>, from: number, out: Uint8Array, at: number): number {
    const keys = this.#keys;
    const ends = this.#ends;
    let o = at;
    let k = 0;
    for (let i = 0; i < ends.length; i++) {
      const end = ends[i] as number;
      while (k < end) out[o++] = keys[k++] as number;
      o = writeTenths(codes[from + i] as number, out, o);
    }
    return o;
  }
}

/**
 * `head`, the members of codes `from` on (`TenthsMembers`), `tail`: a JSON value whose scores are written as digits
 * from their codes straight into an answer's bytes.
 */
export class MembersWithin extends JsonWriter {
  constructor(
    private readonly members: TenthsMembers,
    private readonly codes: ArrayLike<number>,
    private readonly from: number,
    private readonly head: string,
    private readonly tail: string,
  ) {
    super();
  }
  get room(): number {
    return (this.head.length + this.tail.length) * 3 + this.members.room;
  }
  get text(): string {
    return this.head + this.members.text(this.codes, this.from) + this.tail;
  }
  write(out: Buffer, at: number): number {
    at += utf8Write(out, this.head, at);
    at = this.members.write(this.codes, this.from, out, at);
    return at + utf8Write(out, this.tail, at);
  }
}
