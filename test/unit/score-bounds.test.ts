import { expect, test } from "bun:test";
import { jsonMemberText } from "../../lib/text/json-member-text.ts";
import { writtenScoreInRange } from "../../lib/write/score-precision.ts";

test("a score's bounds on its decimal text, exactly", () => {
  for (const t of [
    "0",
    "-0",
    "-0.0",
    "0e5",
    "100",
    "100.0",
    "100.000",
    "1e2",
    "1E+2",
    "10e1",
    "0.001e5",
    "99.9999999999999999999",
    "1e-400",
    "0.5",
    "050",
  ])
    expect([t, writtenScoreInRange(t)]).toEqual([t, true]);
  for (const t of [
    "100.000000000000000000001",
    "100.0000000000001",
    "1e2000",
    "101",
    "-1e-400",
    "-0.1",
    "",
    ".",
    "-",
    "abc",
    "1e",
    "--1",
  ])
    expect([t, writtenScoreInRange(t)]).toEqual([t, false]);
  expect(writtenScoreInRange("1000e-1")).toBe(true);
  expect(writtenScoreInRange("1001e-1")).toBe(false);
});

test("the text of a top-level member as written; nested and string look-alikes skipped; the last one wins", () => {
  const json =
    '{ "a" : 100.000000000000000000001 , "s":"\\"b\\": 5, }", "n":{"b":1,"c":[1,{"b":2}]}, "b" :-1e-400,"\\u0062":7}';
  expect(jsonMemberText(json, "a")).toBe("100.000000000000000000001");
  expect(jsonMemberText(json, "b")).toBe("7");
  expect(jsonMemberText(json, "n")).toBe('{"b":1,"c":[1,{"b":2}]}');
  expect(jsonMemberText(json, "s")).toBe('"\\"b\\": 5, }"');
  expect(jsonMemberText(json, "z")).toBeUndefined();
  expect(jsonMemberText("[1]", "a")).toBeUndefined();
  expect(jsonMemberText("{}", "a")).toBeUndefined();
});
