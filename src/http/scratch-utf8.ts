import { type AnswerBody, bodyLength, bodyText } from "./answer-body.ts";

/**
 * The UTF-8 of an answer's body written into one buffer reused from answer to answer: a new array of the body's
 * size per answer costs more than the work done on it once the heap holds a server's data, and a body in pieces is
 * written piece by piece, never joined (docs/performance.md). The view is good until the next call; a `Response`
 * made of it copies it.
 */

const encoder = new TextEncoder();
/** Larger answers get an array of their own rather than keep this much held between answers. */
const MOST_KEPT = 4 << 20;
let scratch = Buffer.allocUnsafe(64 << 10);

/** Writes `text` as UTF-8 at `at`, returns the bytes written: the runtime's own writer where it has one. */
const utf8Write: (buffer: Buffer, text: string, at: number) => number =
  typeof (Buffer.prototype as { utf8Write?: unknown }).utf8Write === "function"
    ? (buffer, text, at) =>
        (buffer as unknown as { utf8Write(t: string, o: number): number }).utf8Write(text, at)
    : (buffer, text, at) => buffer.write(text, at, "utf8");

export function scratchUtf8(body: AnswerBody): Uint8Array {
  // A UTF-16 code unit takes at most 3 bytes of UTF-8, so a buffer of 3 per character always holds the text.
  const room = bodyLength(body) * 3;
  if (room > MOST_KEPT) return encoder.encode(bodyText(body));
  if (room > scratch.length)
    scratch = Buffer.allocUnsafe(Math.min(MOST_KEPT, Math.max(room, scratch.length * 2)));
  const out = scratch;
  if (typeof body === "string") return out.subarray(0, utf8Write(out, body, 0));
  let at = 0;
  for (const piece of body) {
    if (typeof piece === "string") {
      at += utf8Write(out, piece, at);
      continue;
    }
    out[at++] = 0x5b; // [
    const rows = piece.rows;
    for (let i = 0; i < rows.length; i++) {
      if (i > 0) out[at++] = 0x2c; // ,
      at += utf8Write(out, rows[i] as string, at);
    }
    out[at++] = 0x5d; // ]
  }
  return out.subarray(0, at);
}
