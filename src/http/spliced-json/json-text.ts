import { type BodyWriter, utf8Write } from "./answer-body.ts";

/**
 * A value already serialised as JSON. The spliced answers return one, and the presenters put `text` into the
 * answer instead of serialising a value again.
 */
export class JsonText {
  constructor(readonly text: string) {}
}

/**
 * A JSON value an answer writes out itself (`BodyWriter`: rows one after another, digits as bytes) rather than
 * as one string; `text` is that string, made only where it is read (a cached answer, CSV).
 */
export abstract class JsonWriter implements BodyWriter {
  abstract readonly room: number;
  abstract write(out: Buffer, at: number): number;
  abstract readonly text: string;
}

/**
 * A JSON value serialised once and kept as its UTF-8 as well, which each answer copies: no text of its size is made
 * or encoded per answer (a constant answer of tens of KB, as the methodology).
 */
export class JsonBytes extends JsonWriter {
  readonly #bytes: Buffer;
  constructor(readonly text: string) {
    super();
    this.#bytes = Buffer.from(text, "utf8");
  }
  get room(): number {
    return this.#bytes.length;
  }
  write(out: Buffer, at: number): number {
    return at + this.#bytes.copy(out, at);
  }
}

/**
 * A JSON array an answer writes out itself: `[`, its items with commas between them, `]`. A kind of array says how
 * an item is written, how many bytes it may take and what its text is; `text`, the array as one string, is made
 * only where it is read.
 */
export abstract class JsonArray<T> extends JsonWriter {
  #text: string | undefined;
  #room = -1;
  constructor(readonly items: readonly T[]) {
    super();
  }
  protected abstract itemText(item: T): string;
  /** The most bytes `writeItem` writes for `item`. */
  protected abstract itemRoom(item: T): number;
  protected abstract writeItem(item: T, out: Buffer, at: number): number;
  get text(): string {
    this.#text ??= `[${this.items.map((item) => this.itemText(item)).join(",")}]`;
    return this.#text;
  }
  get room(): number {
    if (this.#room < 0) {
      // Brackets and commas, then the items'.
      let room = 1 + Math.max(1, this.items.length);
      for (const item of this.items) room += this.itemRoom(item);
      this.#room = room;
    }
    return this.#room;
  }
  write(out: Buffer, at: number): number {
    const items = this.items;
    out[at++] = 0x5b; // [
    for (let i = 0; i < items.length; i++) {
      if (i > 0) out[at++] = 0x2c; // ,
      at = this.writeItem(items[i] as T, out, at);
    }
    out[at++] = 0x5d; // ]
    return at;
  }
}

/** A JSON array of rows, each of which says its own JSON text (`rows`): CSV makes one record of each. */
export abstract class JsonRowArray<T> extends JsonArray<T> {
  get rows(): readonly string[] {
    return this.items.map((item) => this.itemText(item));
  }
}

/** A JSON array of rows already serialised, kept as its rows' texts. */
export class JsonRows extends JsonRowArray<string> {
  override get rows(): readonly string[] {
    return this.items;
  }
  protected itemText(row: string): string {
    return row;
  }
  protected itemRoom(row: string): number {
    return row.length * 3;
  }
  protected writeItem(row: string, out: Buffer, at: number): number {
    return at + utf8Write(out, row, at);
  }
}

/** The JSON text of a value: `text` of a JsonText or JsonWriter, else `JSON.stringify`. */
export function jsonOf(value: unknown): string {
  return value instanceof JsonText || value instanceof JsonWriter
    ? value.text
    : JSON.stringify(value ?? null);
}

/** `text` made one flat string now (reading a character does it), not a chain of pieces every answer walks again. */
export function flat(text: string): string {
  text.charCodeAt(0);
  return text;
}
