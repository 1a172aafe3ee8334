import { utf8Write } from "./answer-body.ts";
import { SlotSpans } from "./text-column.ts";

/**
 * Short texts by slot kept as their UTF-8, in a few large buffers: what an answer writes of them is copied as it
 * is (no string cut out and encoded again per answer), and a text beyond Latin-1 takes less room than as a string.
 * A slot's bytes are `chunks[chunk[slot]]` from `start[slot]` to `end[slot]`.
 */
export interface ByteColumn {
  chunks: Buffer[];
  chunk: Uint16Array;
  start: Int32Array;
  end: Int32Array;
}

/** The UTF-8 length of a slot's text. */
export const byteLength = (column: ByteColumn, slot: number): number =>
  (column.end[slot] as number) - (column.start[slot] as number);

/** Copies a slot's bytes without their first `head` and last `tail` into `out` at `at`; returns where they end. */
export function copyBytes(
  column: ByteColumn,
  slot: number,
  head: number,
  tail: number,
  out: Buffer,
  at: number,
): number {
  const chunk = column.chunks[column.chunk[slot] as number] as Buffer;
  return at + chunk.copy(out, at, (column.start[slot] as number) + head, (column.end[slot] as number) - tail);
}

/** A slot's text without its first `head` and last `tail` bytes, as a string. */
export function bytesText(column: ByteColumn, slot: number, head: number, tail: number): string {
  const chunk = column.chunks[column.chunk[slot] as number] as Buffer;
  return chunk.toString("utf8", (column.start[slot] as number) + head, (column.end[slot] as number) - tail);
}

/** The bytes of a chunk: large enough that a column has few (and `chunk` stays 16 bits), small enough to waste little. */
const CHUNK_BYTES = 256 << 10;

export class ByteColumnBuilder {
  readonly #chunks: Buffer[] = [];
  #open: Buffer | undefined;
  #used = 0;
  readonly #spans = new SlotSpans();
  /** Keeps `text` at `slot`; returns its UTF-8 length. */
  set(slot: number, text: string): number {
    // A UTF-16 unit takes at most three bytes of UTF-8.
    const most = text.length * 3;
    if (this.#open === undefined || this.#used + most > this.#open.length) {
      this.#close();
      this.#open = Buffer.allocUnsafe(Math.max(CHUNK_BYTES, most));
    }
    const length = utf8Write(this.#open, text, this.#used);
    this.#spans.place(slot, this.#chunks.length, this.#used, this.#used + length);
    this.#used += length;
    return length;
  }
  #close(): void {
    if (this.#open === undefined) return;
    const used = this.#open.subarray(0, this.#used);
    // A chunk mostly empty (the last) is copied to its size rather than hold the rest.
    this.#chunks.push(this.#used < this.#open.length / 2 ? Buffer.from(used) : used);
    this.#open = undefined;
    this.#used = 0;
  }
  build(count: number): ByteColumn {
    this.#close();
    return { chunks: this.#chunks, ...this.#spans.build(count) };
  }
}
