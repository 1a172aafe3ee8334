/**
 * Answers too large to be held back for the end of their turn (`src/answers-per-turn.ts`). `Bun.serve` writes an
 * answer handed to it inside the request's own turn in one corked write; one handed over later, outside that turn,
 * is written uncorked, and past about 16 KB of headers and body it then cost about ten times the kernel time
 * (docs/performance.md, "Large answers sent at once").
 */

/** Body bytes past which an answer is sent at once: the 16 KB write less room for the headers. */
export const LARGE_ANSWER_BYTES = 14 * 1024;

const large = new WeakSet<Response>();

/**
 * Marks `response` large when its body passes `LARGE_ANSWER_BYTES`; returns it. `utf8Bytes`: a text body's UTF-8
 * length where the caller knows it (else measured, when its characters alone cannot tell).
 */
export function markedBySize(
  response: Response,
  body: string | Uint8Array | null,
  utf8Bytes?: number,
): Response {
  if (body === null) return response;
  const big =
    typeof body === "string"
      ? body.length > LARGE_ANSWER_BYTES ||
        (body.length * 3 > LARGE_ANSWER_BYTES && (utf8Bytes ?? Buffer.byteLength(body)) > LARGE_ANSWER_BYTES)
      : body.byteLength > LARGE_ANSWER_BYTES;
  if (big) large.add(response);
  return response;
}

/** True when `response` was marked large. */
export const isLargeAnswer = (response: Response): boolean => large.has(response);
