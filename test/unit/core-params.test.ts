import { describe, expect, test } from "bun:test";
import { Type } from "@sinclair/typebox";
import {
  CompareParams,
  IdParams,
  ListUniversitiesParams,
  parseParams,
  RankingsParams,
  UnirankError,
} from "../../lib/index.ts";
import { parseIds } from "../../lib/queries/compare.ts";

/** The params a parse failure names, or null when it parses. */
function bad(schema: Parameters<typeof parseParams>[0], raw: Record<string, string | string[]>) {
  try {
    parseParams(schema, raw);
    return null;
  } catch (e) {
    expect(e).toBeInstanceOf(UnirankError);
    const err = e as UnirankError;
    expect(err.code).toBe("INVALID_PARAMETER");
    return (err.details ?? []).map((d) => d.param);
  }
}

describe("core: parseParams", () => {
  test("string lengths count characters as the string's iterator does: a surrogate pair is one, a lone one too", () => {
    const schema = Type.Object({ q: Type.String({ minLength: 2, maxLength: 3 }) });
    const fits = ["ab", "abc", "😀😀", "😀😀😀", "a😀b", "\ud800\ud800", "\udc00a\ud800", "大学", "😀\ud800"];
    for (const q of fits) {
      expect(parseParams(schema, { q })).toEqual({ q });
    }
    for (const q of ["a", "😀", "abcd", "😀😀😀😀", "\ud800", "\ud800\udc00", "a\ud800\ud800\ud800"]) {
      expect(bad(schema, { q })).toEqual(["q"]);
    }
  });
  test("defaults fill absent values; unknown parameters are ignored", () => {
    expect(parseParams(ListUniversitiesParams, { utm_source: "x" })).toEqual({
      page: 1,
      limit: 20,
      sort: "name",
      order: "asc",
    });
    expect(parseParams(RankingsParams, {})).toEqual({ page: 1, limit: 50, sort: "overall" });
  });

  test("valid values parse to numbers and strings", () => {
    expect(
      parseParams(RankingsParams, {
        page: "3",
        limit: "100",
        min_score: "12.5",
        max_score: "100",
        country: "de",
        sort: "research",
      }),
    ).toEqual({ page: 3, limit: 100, min_score: 12.5, max_score: 100, country: "de", sort: "research" });
    expect(parseParams(RankingsParams, { min_score: "0", max_score: "0" })).toMatchObject({
      min_score: 0,
      max_score: 0,
    });
    expect(parseParams(IdParams, { id: "2147483647" })).toEqual({ id: 2147483647 });
  });

  const integerForms = ["1.5", "abc", "-1", "0", "", "1e2", " 1", "+1", "0x10", "١"];
  for (const value of integerForms) {
    test(`integer parameters reject ${JSON.stringify(value)}`, () => {
      expect(bad(ListUniversitiesParams, { page: value })).toEqual(["page"]);
      expect(bad(ListUniversitiesParams, { limit: value })).toEqual(["limit"]);
      expect(bad(IdParams, { id: value })).toEqual(["id"]);
    });
  }

  test("limit over the maximum is rejected, not clamped; id beyond 32 bits is rejected", () => {
    expect(bad(ListUniversitiesParams, { limit: "101" })).toEqual(["limit"]);
    expect(bad(RankingsParams, { limit: "101" })).toEqual(["limit"]);
    expect(bad(IdParams, { id: "2147483648" })).toEqual(["id"]);
  });

  test("scores must be plain decimals from 0 to 100", () => {
    for (const value of ["-1", "100.1", "abc", "", "1e1", "50.", ".5", "NaN", "Infinity"]) {
      expect(bad(RankingsParams, { min_score: value })).toEqual(["min_score"]);
      expect(bad(RankingsParams, { max_score: value })).toEqual(["max_score"]);
    }
  });

  test("a refused number says why: its form, its digits, or its range", () => {
    const message = (raw: Record<string, string>, schema = RankingsParams) => {
      try {
        parseParams(schema, raw);
      } catch (e) {
        return (e as UnirankError).details?.[0]?.message;
      }
      return null;
    };
    expect(message({ min_score: "12.5555555555555555" })).toBe(
      "min_score must be a number from 0 to 100 with at most 15 decimals (12.5555555555555555 has 16)",
    );
    expect(message({ min_score: "0000000000000012.5" })).toBe(
      "min_score must be a number from 0 to 100 with at most 15 digits before the decimal point",
    );
    expect(message({ min_score: "1e1" })).toBe(
      "min_score must be a number from 0 to 100, written as digits with an optional decimal point (as in 72.5)",
    );
    expect(message({ min_score: "100.1" })).toBe("min_score must be a number from 0 to 100");
    expect(message({ limit: "0000000000000001" })).toBe(
      "limit must be an integer from 1 to 100 with at most 15 digits",
    );
    expect(message({ limit: "1.5" })).toBe("limit must be an integer from 1 to 100");
    expect(message({ min_score: "12.555555555555555" })).toBeNull();
  });

  test("unknown enum values, wrong case and empty values are rejected", () => {
    expect(bad(ListUniversitiesParams, { sort: "popularity" })).toEqual(["sort"]);
    expect(bad(ListUniversitiesParams, { sort: "NAME" })).toEqual(["sort"]);
    expect(bad(ListUniversitiesParams, { order: "up" })).toEqual(["order"]);
    expect(bad(ListUniversitiesParams, { order: "" })).toEqual(["order"]);
    expect(bad(RankingsParams, { sort: "name" })).toEqual(["sort"]);
    expect(bad(ListUniversitiesParams, { search: "" })).toEqual(["search"]);
    expect(bad(ListUniversitiesParams, { search: "x".repeat(101) })).toEqual(["search"]);
    expect(bad(ListUniversitiesParams, { search: "é".repeat(100) })).toBeNull();
    for (const control of ["a\u0000b", "\t", "x\n", "\u007f"]) {
      expect(bad(ListUniversitiesParams, { search: control })).toEqual(["search"]);
    }
    expect(bad(ListUniversitiesParams, { country: "" })).toEqual(["country"]);
    expect(bad(ListUniversitiesParams, { country: "DEU" })).toEqual(["country"]);
    expect(bad(ListUniversitiesParams, { country: "1A" })).toEqual(["country"]);
  });

  test("a repeated parameter is rejected", () => {
    expect(bad(ListUniversitiesParams, { page: ["1", "2"] })).toEqual(["page"]);
    expect(bad(ListUniversitiesParams, { page: ["1", "1"] })).toEqual(["page"]);
  });

  test("every bad parameter is named at once, with a message each", () => {
    try {
      parseParams(ListUniversitiesParams, { page: "0", limit: "500", sort: "x", order: "y", country: "" });
      throw new Error("parsed");
    } catch (e) {
      const err = e as UnirankError;
      expect(err.details?.map((d) => d.param)).toEqual(["page", "limit", "country", "sort", "order"]);
      expect(err.details?.every((d) => d.message.startsWith(d.param))).toBe(true);
      expect(err.message).toContain("limit must be an integer from 1 to 100");
    }
  });

  test("ids: required, comma-separated digits", () => {
    expect(bad(CompareParams, {})).toEqual(["ids"]);
    expect(bad(CompareParams, { ids: "" })).toEqual(["ids"]);
    expect(bad(CompareParams, { ids: "1,,2" })).toEqual(["ids"]);
    expect(bad(CompareParams, { ids: "1, 2" })).toEqual(["ids"]);
    expect(bad(CompareParams, { ids: "1,2," })).toEqual(["ids"]);
    expect(bad(CompareParams, { ids: "a,b" })).toEqual(["ids"]);
    expect(bad(CompareParams, { ids: "1,2" })).toBeNull();
  });
});

describe("core: parseIds", () => {
  const fails = (text: string) => {
    const e = (() => {
      try {
        parseIds(text);
      } catch (error) {
        return error as UnirankError;
      }
      return null;
    })();
    expect(e?.code).toBe("INVALID_PARAMETER");
    expect(e?.details?.[0]?.param).toBe("ids");
    return e?.message;
  };
  test("keeps the order given", () => {
    expect(parseIds("5,1,3")).toEqual([5, 1, 3]);
    expect(parseIds("1,2,3,4,5,6,7,8,9,10")).toHaveLength(10);
  });
  test("rejects 1 id, 11 ids, duplicates, 0, empty parts and huge ids", () => {
    expect(fails("1")).toContain("2 to 10");
    expect(fails("1,2,3,4,5,6,7,8,9,10,11")).toContain("2 to 10");
    expect(fails("1,2,1")).toContain("distinct");
    expect(fails("0,1")).toContain("positive");
    expect(fails("1,,2")).toContain("positive");
    expect(fails("1,2147483648")).toContain("positive");
    expect(fails("1,12345678901")).toContain("positive");
    expect(fails("1,2,")).toContain("positive");
    expect(fails(",1,2")).toContain("positive");
    expect(fails("1,+2")).toContain("positive");
    expect(fails("1,2.0")).toContain("positive");
    expect(fails("")).toContain("positive");
    // Format first, then duplicates, then the count, as before: many ids with a repeat are named as duplicates.
    expect(fails(`${Array.from({ length: 12 }, (_, i) => i + 1).join(",")},3`)).toContain("distinct");
    expect(fails("1,2,3,4,5,6,7,8,9,10,x,1")).toContain("positive");
  });
  test("the largest id and leading zeros, as the pattern always let them", () => {
    expect(parseIds("2147483647,0000000001")).toEqual([2147483647, 1]);
  });
});
