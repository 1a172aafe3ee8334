import { expect, test } from "bun:test";
import { NULL_CODE, putTenthsCodes, tenthsCode } from "../../lib/scores/tenths.ts";

test("tenthsCode: a score of one decimal in 0–100 as its tenths, null as NULL_CODE, anything else -1", () => {
  for (let k = 0; k <= 1000; k++) expect(tenthsCode(k / 10)).toBe(k);
  expect(tenthsCode(null)).toBe(NULL_CODE);
  for (const value of [33.33, -0.1, 100.1, 0.05, Number.NaN, Number.POSITIVE_INFINITY]) {
    expect(tenthsCode(value)).toBe(-1);
  }
});

test("putTenthsCodes: each name's code in order at the offset, NULL_CODE where a code cannot say it", () => {
  const out = new Uint16Array(8).fill(7);
  const names = ["a", "b", "c", "d"];
  expect(putTenthsCodes({ a: 72.5, b: null, c: "99.9", d: 0 }, names, out, 2)).toBe(true);
  expect([...out]).toEqual([7, 7, 725, NULL_CODE, 999, 0, 7, 7]);
  // A value that is not a tenth, and one missing.
  expect(putTenthsCodes({ a: 33.33, c: 100 }, names, out, 2)).toBe(false);
  expect([...out]).toEqual([7, 7, NULL_CODE, NULL_CODE, 1000, NULL_CODE, 7, 7]);
  // No values at all: every one null, and exact.
  expect(putTenthsCodes(null, names, out, 4)).toBe(true);
  expect([...out.subarray(4)]).toEqual([NULL_CODE, NULL_CODE, NULL_CODE, NULL_CODE]);
});
