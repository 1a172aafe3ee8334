/**
 * A value already serialised as JSON. The spliced rankings and leaderboards return one, and the presenters put
 * `text` into the answer instead of serialising a value again.
 */
export class JsonText {
  constructor(readonly text: string) {}
}

/** A JSON array of rows already serialised: `text` is the array, and each row's text is kept too. */
export class JsonRows extends JsonText {
  constructor(
    text: string,
    readonly rows: readonly string[],
  ) {
    super(text);
  }
}

/** The JSON text of a value: `text` of a JsonText, else `JSON.stringify`. */
export function jsonOf(value: unknown): string {
  return value instanceof JsonText ? value.text : JSON.stringify(value ?? null);
}

/** `text` made one flat string now (reading a character does it), not a chain of pieces every answer walks again. */
export function flat(text: string): string {
  text.charCodeAt(0);
  return text;
}
