/**
 * An answer's text: one string, or pieces written out one after another. A piece is a string or a `BodyWriter`,
 * which writes its own UTF-8 (the rows of a rankings page one after another, a comparison's scores as digits).
 * Pieces are never joined on the way out: their UTF-8 is written into one buffer piece by piece (`scratchUtf8`),
 * where joining them made a string the encoding then had to walk and copy again (docs/performance.md).
 */
export type BodyPiece = string | BodyWriter;
export type AnswerBody = string | readonly BodyPiece[];

/** A piece of JSON that writes its UTF-8 itself, and can say itself as one string where that is asked for. */
export interface BodyWriter {
  /** The most bytes `write` writes. */
  readonly room: number;
  /** Writes the UTF-8 at `at` of `out`, which has `room` bytes there; returns where it ended. */
  write(out: Buffer, at: number): number;
  /** The same JSON as one string. */
  readonly text: string;
}

/** Writes `text` as UTF-8 at `at`, returns the bytes written: the runtime's own writer where it has one. */
export const utf8Write: (out: Buffer, text: string, at: number) => number =
  typeof (Buffer.prototype as { utf8Write?: unknown }).utf8Write === "function"
    ? (out, text, at) => (out as unknown as { utf8Write(t: string, o: number): number }).utf8Write(text, at)
    : (out, text, at) => out.write(text, at, "utf8");

/** A writer's text read back from the bytes it writes: one way to say it, for writers that keep no text. */
export function writtenText(writer: BodyWriter): string {
  const out = Buffer.allocUnsafe(writer.room);
  return out.toString("utf8", 0, writer.write(out, 0));
}

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

/** The most bytes the body's UTF-8 takes (three a UTF-16 code unit). */
export function bodyRoom(body: AnswerBody): number {
  if (typeof body === "string") return body.length * 3;
  let room = 0;
  for (const piece of body) room += typeof piece === "string" ? piece.length * 3 : piece.room;
  return room;
}
