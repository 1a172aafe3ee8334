import { NULL_CODE } from "../../../lib/scores/tenths.ts";
import { utf8Write } from "./answer-body.ts";
import { asciiWords, putTenthsWord, WORD_SLACK, wordView } from "./ascii-words.ts";
import { JsonWriter } from "./json-text.ts";

/** The JSON of a code of tenths (`lib/scores/tenths.ts`): the score `k / 10` as `JSON.stringify` writes it, or `null`. */
export const tenthsJson = (code: number): string => (code === NULL_CODE ? "null" : JSON.stringify(code / 10));

/** Where `TenthsMembers` write: room for every list's keys and the longest values, reused by every call. */
let scratch = Buffer.alloc(4096);

/**
 * `"name":value,…`: the members of a JSON object whose values are codes of tenths, for one list of names. The text
 * is written as bytes in one buffer (the keys and a value's digits a word at a time, `ascii-words.ts`) and read out
 * as one flat string: fewer memory reads than joining a key and a value text per member (docs/performance.md); or
 * written straight into an answer's bytes (`write`). The same text as `JSON.stringify` of `k / 10`
 * (test/unit/tenths-members.test.ts).
 */
export class TenthsMembers {
  /** Every key's words, one key after another. */
  readonly #words: Int32Array;
  /** Where each name's words end in `#words`. */
  readonly #wordEnds: Int32Array;
  /** Each key's length in bytes. */
  readonly #lengths: Int32Array;
  readonly #bytes: number;

  constructor(names: readonly string[]) {
    const keys = names.map((name, i) => `${i === 0 ? "" : ","}${JSON.stringify(name)}:`);
    // The text is read out as Latin-1, byte for character: `asciiWords` refuses anything but printable ASCII.
    const words = keys.map(asciiWords);
    this.#words = new Int32Array(words.reduce((n, w) => n + w.length, 0));
    this.#wordEnds = new Int32Array(names.length);
    this.#lengths = new Int32Array(keys.map((key) => key.length));
    this.#bytes = keys.reduce((n, key) => n + key.length, 0);
    let end = 0;
    for (const [i, w] of words.entries()) {
      this.#words.set(w, end);
      end += w.length;
      this.#wordEnds[i] = end;
    }
    if (this.room > scratch.length) scratch = Buffer.alloc(this.room);
  }

  /** The most bytes `write` writes: the keys, four bytes a value, and the words' slack. */
  get room(): number {
    return this.#bytes + 4 * this.#wordEnds.length + WORD_SLACK;
  }

  /** The members of the codes `codes[from]` to `codes[from + names.length - 1]`, in the names' order. */
  text(codes: ArrayLike<number>, from: number): string {
    return scratch.toString("latin1", 0, this.write(codes, from, scratch, 0));
  }

  /** `text`'s bytes written at `at` of `out` (which has `room` bytes there); returns where they end. */
  write(codes: ArrayLike<number>, from: number, out: Uint8Array, at: number): number {
    const view = wordView(out);
    const words = this.#words;
    const ends = this.#wordEnds;
    const lengths = this.#lengths;
    let o = at;
    let w = 0;
    for (let i = 0; i < ends.length; i++) {
      const key = o;
      const end = ends[i] as number;
      for (; w < end; w++, o += 4) view.setInt32(o, words[w] as number, true);
      o = putTenthsWord(view, codes[from + i] as number, key + (lengths[i] as number));
    }
    return o;
  }
}

/**
 * `head` (a text, or a value that writes itself), the members of codes `from` on (`TenthsMembers`), `tail`: a JSON
 * value whose scores are written as digits from their codes straight into an answer's bytes.
 */
export class MembersWithin extends JsonWriter {
  constructor(
    private readonly members: TenthsMembers,
    private readonly codes: ArrayLike<number>,
    private readonly from: number,
    private readonly head: string | JsonWriter,
    private readonly tail: string,
  ) {
    super();
  }
  get room(): number {
    const { head } = this;
    return (
      (typeof head === "string" ? head.length * 3 : head.room) + this.tail.length * 3 + this.members.room
    );
  }
  get text(): string {
    const { head } = this;
    return (
      (typeof head === "string" ? head : head.text) + this.members.text(this.codes, this.from) + this.tail
    );
  }
  write(out: Buffer, at: number): number {
    const { head } = this;
    at = typeof head === "string" ? at + utf8Write(out, head, at) : head.write(out, at);
    at = this.members.write(this.codes, this.from, out, at);
    return at + utf8Write(out, this.tail, at);
  }
}
