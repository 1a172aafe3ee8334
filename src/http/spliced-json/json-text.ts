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
 * A JSON array of rows already serialised, kept as its rows: an answer writes them out one after another, and
 * `text`, the array as one string, is joined only where it is read.
 */
export class JsonRows extends JsonWriter {
  #text: string | undefined;
  #room = -1;
  constructor(readonly rows: readonly string[]) {
    super();
  }
  get text(): string {
    this.#text ??= `[${this.rows.join(",")}]`;
    return this.#text;
  }
  get room(): number {
    if (this.#room < 0) {
      // Brackets and commas, then three bytes at most a character.
      let room = 1 + Math.max(1, this.rows.length);
      for (const row of this.rows) room += row.length * 3;
      this.#room = room;
    }
    return this.#room;
  }
  write(out: Buffer, at: number): number {
    const rows = this.rows;
    out[at++] = 0x5b; // [
    for (let i = 0; i < rows.length; i++) {
      if (i > 0) out[at++] = 0x2c; // ,
      at += utf8Write(out, rows[i] as string, at);
    }
    out[at++] = 0x5d; // ]
    return at;
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
