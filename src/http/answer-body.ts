import type { JsonRows } from "./spliced-json/json-text.ts";

/**
 * An answer's text: one string, or pieces written out one after another, where a `JsonRows` piece is its array
 * (`[row,row,…]`). Pieces are never joined on the way out: their UTF-8 is written into one buffer piece by piece
 * (`scratchUtf8`), where joining them made a string the encoding then had to walk and copy again
 * (docs/performance.md).
 */
export type BodyPiece = string | JsonRows;
export type AnswerBody = string | readonly BodyPiece[];

/** The body as one string (a cached answer keeps one). */
export function bodyText(body: AnswerBody): string {
  if (typeof body === "string") return body;
  let text = "";
  for (const piece of body) text += typeof piece === "string" ? piece : piece.text;
  return text;
}

/** `head` in front of `body`. */
export const prefixed = (head: string, body: AnswerBody): AnswerBody =>
  typeof body === "string" ? head + body : [head, ...body];

/** The characters of the body's text (its UTF-8 is at most three bytes each). */
export function bodyLength(body: AnswerBody): number {
  if (typeof body === "string") return body.length;
  let length = 0;
  for (const piece of body) {
    if (typeof piece === "string") length += piece.length;
    else {
      // Brackets and commas.
      length += 1 + Math.max(1, piece.rows.length);
      for (const row of piece.rows) length += row.length;
    }
  }
  return length;
}
