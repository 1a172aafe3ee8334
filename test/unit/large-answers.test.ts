import { expect, test } from "bun:test";
import { isLargeAnswer, LARGE_ANSWER_BYTES, markedBySize } from "../../src/http/large-answers.ts";
import { jsonResponse } from "../../src/http/respond.ts";

const marked = (body: string | Uint8Array | null, utf8Bytes?: number) =>
  isLargeAnswer(markedBySize(new Response(body as BodyInit | null), body, utf8Bytes));

test("an answer is large when its body's bytes pass the limit, counted as UTF-8 for a text", () => {
  expect(marked(null)).toBe(false);
  expect(marked("a".repeat(LARGE_ANSWER_BYTES))).toBe(false);
  expect(marked("a".repeat(LARGE_ANSWER_BYTES + 1))).toBe(true);
  expect(marked(new Uint8Array(LARGE_ANSWER_BYTES))).toBe(false);
  expect(marked(new Uint8Array(LARGE_ANSWER_BYTES + 1))).toBe(true);
  // Fewer characters than the limit, more bytes: three bytes each.
  const cjk = "大".repeat(Math.ceil(LARGE_ANSWER_BYTES / 3) + 1);
  expect(marked(cjk)).toBe(true);
  expect(marked("大".repeat(Math.floor(LARGE_ANSWER_BYTES / 3)))).toBe(false);
  // A length the caller knows is taken as it is.
  expect(marked(cjk, 10)).toBe(false);
});

test("the answers the HTTP core makes are marked by the bytes they send", () => {
  const request = new Request("http://127.0.0.1/x");
  const answer = (body: string, accept?: string) =>
    jsonResponse(accept ? new Request(request, { headers: { "Accept-Encoding": accept } }) : request, body, {
      status: 200,
      cache: "public",
    });
  const big = JSON.stringify({ rows: Array.from({ length: 2000 }, (_, i) => `row ${i}`) });
  expect(big.length).toBeGreaterThan(LARGE_ANSWER_BYTES);
  expect(isLargeAnswer(answer(big))).toBe(true);
  expect(isLargeAnswer(answer(["大", big].join("")))).toBe(true);
  expect(isLargeAnswer(answer('{"ok":true}'))).toBe(false);
  // Compressed, the same rows are small.
  expect(isLargeAnswer(answer(big, "gzip"))).toBe(false);
  expect(isLargeAnswer(answer(big.slice(0, LARGE_ANSWER_BYTES - 10)))).toBe(false);
});
