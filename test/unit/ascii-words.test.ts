import { expect, test } from "bun:test";
import { NULL_CODE } from "../../lib/scores/tenths.ts";
import {
  AsciiText,
  asciiWords,
  putDigits,
  putInteger,
  putTenthsWord,
  WORD_SLACK,
  wordView,
} from "../../src/http/spliced-json/ascii-words.ts";

const latin1 = (out: Uint8Array, from: number, to: number) => Buffer.from(out).toString("latin1", from, to);

test("AsciiText: its bytes at any offset, at most WORD_SLACK bytes past them touched", () => {
  for (const text of ["", "a", "ab", "abc", "abcd", "abcde", '{"score":"tech_ssl_score","a":']) {
    const constant = new AsciiText(text);
    expect(constant.length).toBe(text.length);
    for (let at = 0; at < 5; at++) {
      const out = new Uint8Array(at + text.length + WORD_SLACK + 8).fill(0x21);
      const end = constant.write(wordView(out), at);
      expect(end).toBe(at + text.length);
      expect(latin1(out, at, end)).toBe(text);
      expect([...out.subarray(0, at), ...out.subarray(end + WORD_SLACK)].every((b) => b === 0x21)).toBe(true);
    }
  }
});

test("wordView: a view of the array itself, also where it starts inside a larger buffer", () => {
  const whole = Buffer.alloc(64, 0x21);
  const part = whole.subarray(10, 40);
  const end = new AsciiText("hello").write(wordView(part), 2);
  expect(whole.toString("latin1", 12, 12 + 5)).toBe("hello");
  expect(end).toBe(7);
  // Another array gets a view of its own; the first is seen again afresh.
  const other = new Uint8Array(16);
  new AsciiText("xy").write(wordView(other), 0);
  expect(latin1(other, 0, 2)).toBe("xy");
  new AsciiText("ok").write(wordView(part), 0);
  expect(whole.toString("latin1", 10, 12)).toBe("ok");
});

test("putTenthsWord: every code of 0-1000 and NULL_CODE as JSON.stringify writes k / 10, in one store", () => {
  const out = new Uint8Array(16);
  for (let k = 0; k <= 1000; k++) {
    const end = putTenthsWord(wordView(out), k, 1);
    expect(latin1(out, 1, end)).toBe(JSON.stringify(k / 10));
  }
  expect(latin1(out, 1, putTenthsWord(wordView(out), NULL_CODE, 1))).toBe("null");
});

test("putDigits: a non-negative integer as String writes it, nothing touched around it", () => {
  const values = [
    0,
    1,
    9,
    10,
    99,
    100,
    101,
    999,
    1000,
    65535,
    2 ** 31 - 1,
    2 ** 31,
    10 ** 15,
    Number.MAX_SAFE_INTEGER,
  ];
  for (let n = 0; n < 2000; n++) values.push(n);
  for (const n of values) {
    const out = new Uint8Array(24).fill(0x21);
    const end = putDigits(out, n, 3);
    expect(latin1(out, 3, end)).toBe(String(n));
    expect([...out.subarray(0, 3), ...out.subarray(end)].every((b) => b === 0x21)).toBe(true);
  }
});

test("putInteger: any integer as JSON.stringify writes it", () => {
  for (const n of [0, 7, 42, 2 ** 31 - 1, Number.MAX_SAFE_INTEGER, -1, -2147483648, 2 ** 60]) {
    const out = Buffer.alloc(32, 0x21);
    const end = putInteger(out, n, 2);
    expect(latin1(out, 2, end)).toBe(JSON.stringify(n));
    expect(out[end]).toBe(0x21);
  }
});

test("only printable ASCII becomes words", () => {
  expect(() => asciiWords("é")).toThrow("ASCII");
  expect(() => new AsciiText("a\nb")).toThrow("ASCII");
  expect([...asciiWords("abcde")]).toEqual([0x64636261, 0x65]);
});
