import { type AnswerBody, bodyRoom, bodyText, utf8Write } from "./spliced-json/answer-body.ts";

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

export function scratchUtf8(body: AnswerBody): Uint8Array {
  const room = bodyRoom(body);
  if (room > MOST_KEPT) return encoder.encode(bodyText(body));
  if (room > scratch.length)
    scratch = Buffer.allocUnsafe(Math.min(MOST_KEPT, Math.max(room, scratch.length * 2)));
  const out = scratch;
  if (typeof body === "string") return out.subarray(0, utf8Write(out, body, 0));
  let at = 0;
  for (const piece of body)
    at = typeof piece === "string" ? at + utf8Write(out, piece, at) : piece.write(out, at);
  return out.subarray(0, at);
}
