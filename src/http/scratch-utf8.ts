/**
 * The UTF-8 of an answer's text written into one buffer reused from answer to answer, for what only reads it (the
 * ETag's hash, compression, a HEAD's length): a new array of the body's size per answer costs more than the work
 * done on it once the heap holds a server's data (docs/performance.md). The view is good until the next call.
 */

const encoder = new TextEncoder();
/** Larger answers get an array of their own rather than keep this much held between answers. */
const MOST_KEPT = 4 << 20;
let scratch = new Uint8Array(64 << 10);

export function scratchUtf8(text: string): Uint8Array {
  // A UTF-16 code unit takes at most 3 bytes of UTF-8, so a buffer of 3 per character always holds the text.
  const room = text.length * 3;
  if (room > MOST_KEPT) return encoder.encode(text);
  if (room > scratch.length)
    scratch = new Uint8Array(Math.min(MOST_KEPT, Math.max(room, scratch.length * 2)));
  const { written } = encoder.encodeInto(text, scratch);
  return scratch.subarray(0, written);
}
