/**
 * A value already serialised as JSON. A query that keeps its rows serialised (rankings, leaderboards) returns one,
 * and presenters splice `text` into the answer instead of serialising the value again.
 */
export class JsonText {
  constructor(readonly text: string) {}
}

/** The JSON text of a value: `text` of a JsonText, else `JSON.stringify`. */
export function jsonOf(value: unknown): string {
  return value instanceof JsonText ? value.text : JSON.stringify(value ?? null);
}
