import { describe, expect, test } from "bun:test";
import { listHeaders } from "../../src/http/csv/list-headers.ts";

/** The next page's target as `URLSearchParams` writes it: what `Link` must say, however it is made. */
function expected(pathname: string, search: string, key: string, value: string, drop: string): string {
  const params = new URLSearchParams(search);
  params.delete(drop);
  params.set(key, value);
  return `<${pathname}?${params.toString()}>; rel="next"`;
}

const pageMeta = { total: 100, page: 2, limit: 10 };
const walkMeta = (cursor: string) => ({ total: 100, limit: 10, next_cursor: cursor });

/** Queries of names and values from a few letters and every character the plain rewrite must leave alone. */
function randomQueries(n: number): string[] {
  let seed = 7;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const alphabet = [
    "a",
    "b",
    "page",
    "cursor",
    "limit",
    "_",
    "=",
    "&",
    "%20",
    "%3D",
    "+",
    "*",
    "-",
    ".",
    "~",
    "é",
    "3",
  ];
  return Array.from({ length: n }, () =>
    Array.from(
      { length: Math.floor(next() * 12) },
      () => alphabet[Math.floor(next() * alphabet.length)],
    ).join(""),
  );
}

describe("listHeaders: the next page's Link", () => {
  const fixed = [
    "",
    "page=2",
    "limit=10&page=2&format=csv",
    "page=2&limit=10&page=3",
    "format=csv&_=17",
    "a&&b=&=c",
    "cursor=abc&page=2",
    "q=a=b&page=2",
    "search=caf%C3%A9&page=2",
    "search=new+york&page=2",
    "search=東京&page=2",
    "limit=10&cursor=*",
  ];

  test("a numbered page: page set in place, a cursor dropped, as URLSearchParams writes it", () => {
    for (const search of [...fixed, ...randomQueries(2000)]) {
      const link = listHeaders(pageMeta, "/api/v1/universities", search).Link;
      expect({ search, link }).toEqual({
        search,
        link: expected("/api/v1/universities", search, "page", "3", "cursor"),
      });
    }
  });

  test("a walk: the cursor set in place, a page dropped, as URLSearchParams writes it", () => {
    for (const cursor of ["eyJhIjoxfQ.0a1b2c", "a+b", "x=y"]) {
      for (const search of [...fixed, ...randomQueries(500)]) {
        const headers = listHeaders(walkMeta(cursor), "/api/v2/rankings", search);
        expect(headers["X-Next-Cursor"]).toBe(cursor);
        expect({ search, link: headers.Link }).toEqual({
          search,
          link: expected("/api/v2/rankings", search, "cursor", cursor, "page"),
        });
      }
    }
  });

  test("the last page has no Link", () => {
    expect(
      listHeaders({ total: 20, page: 2, limit: 10 }, "/api/v1/universities", "page=2").Link,
    ).toBeUndefined();
  });
});
