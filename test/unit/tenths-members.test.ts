import { describe, expect, test } from "bun:test";
import { SCORE_NAMES } from "../../lib/index.ts";
import { NULL_CODE } from "../../lib/scores/tenths.ts";
import { putSignedTenthsWord, WORD_SLACK, wordView } from "../../src/http/spliced-json/ascii-words.ts";
import { TenthsMembers, tenthsJson } from "../../src/http/spliced-json/tenths.ts";

/** The members as `JSON.stringify` writes an object of those names and `k / 10` values. */
function expected(names: readonly string[], codes: ArrayLike<number>, from: number): string {
  const object = Object.fromEntries(
    names.map((name, i) => {
      const code = codes[from + i] as number;
      return [name, code === NULL_CODE ? null : code / 10];
    }),
  );
  return JSON.stringify(object).slice(1, -1);
}

describe("TenthsMembers", () => {
  test("every code, and null, written as JSON.stringify writes k / 10", () => {
    const one = new TenthsMembers(["v"]);
    const codes = [...Array.from({ length: 1001 }, (_, k) => k), NULL_CODE];
    for (let k = 0; k < codes.length; k++) {
      expect(one.text(codes, k)).toBe(`"v":${JSON.stringify(k === 1001 ? null : k / 10)}`);
      expect(tenthsJson(codes[k] as number)).toBe(JSON.stringify(k === 1001 ? null : k / 10));
    }
  });

  test("every score of a slot from its offset, in the names' order", () => {
    const stride = SCORE_NAMES.length;
    const members = new TenthsMembers(SCORE_NAMES);
    const codes = new Uint16Array(50 * stride);
    for (let i = 0; i < codes.length; i++) codes[i] = (i * 7919) % 13 === 0 ? NULL_CODE : (i * 7919) % 1001;
    for (let slot = 0; slot < 50; slot++) {
      expect(members.text(codes, slot * stride)).toBe(expected(SCORE_NAMES, codes, slot * stride));
    }
    // Another list between two calls shares the buffer without changing what the first writes.
    const short = new TenthsMembers(["a", "b"]);
    expect(short.text([5, 1000], 0)).toBe('"a":0.5,"b":100');
    expect(members.text(codes, stride)).toBe(expected(SCORE_NAMES, codes, stride));
  });

  test("written into another buffer at an offset: the same bytes, within `room`, nothing before touched", () => {
    const stride = SCORE_NAMES.length;
    const members = new TenthsMembers(SCORE_NAMES);
    const codes = new Uint16Array(3 * stride).fill(1000);
    codes[stride + 4] = NULL_CODE;
    codes[2 * stride] = 999;
    for (let slot = 0; slot < 3; slot++) {
      const out = new Uint8Array(members.room + 20).fill(0x21);
      const end = members.write(codes, slot * stride, out, 7);
      const text = expected(SCORE_NAMES, codes, slot * stride);
      expect(new TextDecoder().decode(out.subarray(7, end))).toBe(text);
      // Word stores may leave up to WORD_SLACK bytes past the end, counted in `room`; nothing beyond them.
      expect(end - 7 + WORD_SLACK).toBeLessThanOrEqual(members.room);
      expect([...out.subarray(0, 7), ...out.subarray(end + WORD_SLACK)].every((b) => b === 0x21)).toBe(true);
    }
  });

  test("names beyond ASCII are refused", () => {
    expect(() => new TenthsMembers(["é"])).toThrow("ASCII");
  });
});

test("putSignedTenthsWord: every difference of two codes, -1000 to 1000, as JSON.stringify writes k / 10", () => {
  const out = Buffer.alloc(16, 0x78);
  for (let k = -1000; k <= 1000; k++) {
    const end = putSignedTenthsWord(wordView(out), k, 3);
    expect(out.toString("latin1", 3, end)).toBe(JSON.stringify(k / 10));
    expect(end - 3).toBeLessThanOrEqual(5);
  }
  expect(out.toString("latin1", 0, 3)).toBe("xxx");
});
