import { utf8Write } from "./answer-body.ts";
import { JsonRowArray } from "./json-text.ts";

/** A row's text kept with its score, and where its UTF-8 lies in a chunk of `KeptRows`. */
export interface KeptRow {
  readonly score: number;
  readonly text: string;
  readonly chunk: Buffer;
  readonly start: number;
  readonly end: number;
}

/** The bytes of a chunk: some 600 ranking rows, so that a page's rows rarely straddle two chunks. */
const CHUNK_BYTES = 128 << 10;

/**
 * Row texts kept by key, each with its UTF-8 followed by a comma, written into a few large buffers in the order the
 * rows were made. The rows of a page made one after another (the first time it is asked) lie one after another, so
 * the page asked again copies them as one run, commas included (`KeptRowArray`), instead of encoding each text.
 * Up to `limit` rows; past that it starts afresh (the answers still holding rows keep their chunks).
 */
export class KeptRows {
  readonly #byKey = new Map<number, KeptRow>();
  #chunk: Buffer | undefined;
  #used = 0;
  constructor(private readonly limit: number) {}

  get(key: number): KeptRow | undefined {
    return this.#byKey.get(key);
  }

  /** Keeps `text` (made flat by the caller) for `key`, after the rows kept before it. */
  keep(key: number, score: number, text: string): KeptRow {
    if (this.#byKey.size >= this.limit) {
      this.#byKey.clear();
      this.#chunk = undefined;
    }
    // A UTF-16 unit takes at most three bytes of UTF-8; then the comma.
    const most = text.length * 3 + 1;
    if (this.#chunk === undefined || this.#used + most > this.#chunk.length) {
      this.#chunk = Buffer.allocUnsafe(Math.max(CHUNK_BYTES, most));
      this.#used = 0;
    }
    const chunk = this.#chunk;
    const start = this.#used;
    const end = start + utf8Write(chunk, text, start);
    chunk[end] = 0x2c; // ,
    this.#used = end + 1;
    const row: KeptRow = { score, text, chunk, start, end };
    this.#byKey.set(key, row);
    return row;
  }
}

/**
 * A JSON array of kept rows: each run of rows that lie one after another in a chunk is copied at once, the commas
 * between them with it.
 */
export class KeptRowArray extends JsonRowArray<KeptRow> {
  protected itemText(row: KeptRow): string {
    return row.text;
  }
  protected itemRoom(row: KeptRow): number {
    return row.end - row.start;
  }
  protected writeItem(row: KeptRow, out: Buffer, at: number): number {
    return at + row.chunk.copy(out, at, row.start, row.end);
  }
  override write(out: Buffer, at: number): number {
    const items = this.items;
    out[at++] = 0x5b; // [
    let i = 0;
    while (i < items.length) {
      const first = items[i] as KeptRow;
      let last = first;
      let j = i + 1;
      for (; j < items.length; j++) {
        const next = items[j] as KeptRow;
        if (next.chunk !== last.chunk || next.start !== last.end + 1) break;
        last = next;
      }
      if (i > 0) out[at++] = 0x2c; // ,
      at += first.chunk.copy(out, at, first.start, last.end);
      i = j;
    }
    out[at++] = 0x5d; // ]
    return at;
  }
}
