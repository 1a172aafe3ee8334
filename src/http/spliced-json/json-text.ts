/**
 * A value already serialised as JSON. The spliced answers return one, and the presenters put `text` into the
 * answer instead of serialising a value again.
 */
export class JsonText {
  constructor(readonly text: string) {}
}

/**
 * A JSON array of rows already serialised, kept as its rows: an answer writes them out one after another
 * (`AnswerBody`), and `text`, the array as one string, is joined only where it is read.
 */
export class JsonRows {
  #text: string | undefined;
  constructor(readonly rows: readonly string[]) {}
  get text(): string {
    this.#text ??= `[${this.rows.join(",")}]`;
    return this.#text;
  }
}

/** The JSON text of a value: `text` of a JsonText or JsonRows, else `JSON.stringify`. */
export function jsonOf(value: unknown): string {
  return value instanceof JsonText || value instanceof JsonRows ? value.text : JSON.stringify(value ?? null);
}

/** `text` made one flat string now (reading a character does it), not a chain of pieces every answer walks again. */
export function flat(text: string): string {
  text.charCodeAt(0);
  return text;
}
