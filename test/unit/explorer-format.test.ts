import { describe, expect, test } from "bun:test";
import { parse } from "csv-parse/sync";
import {
  checkResult,
  countryName,
  fmt,
  inWords,
  ordinal,
  pointsText,
  signed,
  toCsv,
} from "../../explorer/format.ts";
import { findGrade } from "../../explorer/grade.ts";

describe("explorer formatting", () => {
  test("ordinals, signed changes, scores", () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111, 112, 466].map(ordinal)).toEqual([
      "1st",
      "2nd",
      "3rd",
      "4th",
      "11th",
      "12th",
      "13th",
      "21st",
      "22nd",
      "23rd",
      "101st",
      "111th",
      "112th",
      "466th",
    ]);
    expect([5, -0.1, 0, null].map(signed)).toEqual(["+5.0", "−0.1", "0.0", "—"]);
    expect([76.14, null, undefined].map(fmt)).toEqual(["76.1", "—", "—"]);
  });

  test("a wait in words, rounded up to the unit shown", () => {
    expect([0, 1, 40, 59.2, 60, 61, 3292, 3600, 3601, 5400, 7200, 7500].map(inWords)).toEqual([
      "1 second",
      "1 second",
      "40 seconds",
      "1 minute",
      "1 minute",
      "2 minutes",
      "55 minutes",
      "60 minutes",
      "1 hour 1 minute",
      "1 hour 30 minutes",
      "2 hours",
      "2 hours 5 minutes",
    ]);
  });

  test("country names from the code, the code when unknown", () => {
    expect(countryName("NL")).toBe("Netherlands");
    expect(countryName("is")).toBe("Iceland");
    expect(countryName("XY")).toBe("XY");
  });

  test("a check's result and points: earned, partly earned, none, a penalty", () => {
    const cases = [
      { points: 5, max: 5 },
      { points: 3, max: 5 },
      { points: 0, max: 5 },
      { points: 0, max: 0 },
      { points: -5, max: 0 },
      { points: -20, max: 10 },
    ];
    expect(cases.map(checkResult)).toEqual(["pass", "partial", "fail", "pass", "fail", "fail"]);
    expect(cases.map(pointsText)).toEqual([
      "5 of 5",
      "3 of 5",
      "0 of 5",
      "0 (no penalty)",
      "−5 (penalty)",
      "−20 of 10",
    ]);
  });

  test("CSV: RFC 4180 quoting, nested objects as dotted columns, read back by csv-parse", () => {
    const rows = [
      { rank: 1, university: { id: 7, name: 'Université "Un", Paris' }, score: 99.5, note: null },
      { rank: 2, university: { id: 8, name: "Line\nbreak" }, score: 12, extra: "x" },
    ];
    const text = toCsv(rows);
    expect(text.split("\r\n")[0]).toBe("rank,university.id,university.name,score,note,extra");
    expect(parse(text, { columns: true })).toEqual([
      {
        rank: "1",
        "university.id": "7",
        "university.name": 'Université "Un", Paris',
        score: "99.5",
        note: "",
        extra: "",
      },
      {
        rank: "2",
        "university.id": "8",
        "university.name": "Line\nbreak",
        score: "12",
        note: "",
        extra: "x",
      },
    ]);
  });
});

describe("explorer security grade", () => {
  test("found wherever the evidence puts it, outside the observations; none is null", () => {
    expect(findGrade({ checks: [], grades: { tech_security_headers_score: "B+" } })).toEqual({
      grade: "B+",
      score: "tech_security_headers_score",
    });
    expect(
      findGrade({ checks: [{ id: "headers.grade", score: "tech_security_headers_score", grade: "A+" }] }),
    ).toEqual({ grade: "A+", score: "tech_security_headers_score" });
    expect(findGrade({ security_headers: { observatory_grade: "F" } })).toEqual({ grade: "F", score: null });
    expect(findGrade({ observations: { grade: "A" }, checks: [] })).toBeNull();
    expect(findGrade({ checks: [{ grade: "excellent" }] })).toBeNull();
    expect(findGrade(null)).toBeNull();
  });
});
