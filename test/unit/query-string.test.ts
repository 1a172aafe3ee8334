import { expect, test } from "bun:test";
import { parseQueryString } from "../../src/http/query-string.ts";

/** What `URLSearchParams` reads from a query, a repeated name's values as an array. */
function reference(search: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of new URLSearchParams(search)) {
    const prev = out[k];
    out[k] = prev === undefined ? v : typeof prev === "string" ? [prev, v] : [...prev, v];
  }
  return out;
}

const same = (search: string) =>
  expect({ search, parsed: { ...parseQueryString(search) } }).toEqual({ search, parsed: reference(search) });

test("escapes, `+` and repeats read as URLSearchParams reads them", () => {
  for (const search of [
    "",
    "a=1&b=2",
    "search=%D8%AC%D8%A7%D9%85%D8%B9%D8%A9&sort=domain&order=desc&_=12345",
    "search=s%C3%A9t%C3%A9",
    "q=a+b&q=c%2Bd&q=%20",
    "a%3Db=c%26d&x",
    "a==b&=c&&d=&e",
    "%41=1&A=2",
    "k=%F0%9F%8E%93",
    "k=%e2%82%ac",
  ])
    same(search);
});

test("sequences decodeURIComponent refuses are read leniently, as URLSearchParams reads them", () => {
  for (const search of [
    "a=%",
    "a=%4",
    "a=%zz&b=%41",
    "a=%C3",
    "a=%C3%28",
    "a=%ED%A0%80",
    "a=%FF&b=c",
    "%E0%A4=1",
    "a=100%",
  ])
    same(search);
});

test("random queries of escapes, separators and letters: the same as URLSearchParams", () => {
  const pieces = [
    "%",
    "%4",
    "%41",
    "%C3",
    "%A9",
    "%E2",
    "%82",
    "%AC",
    "%2B",
    "%26",
    "%3D",
    "+",
    "=",
    "&",
    "a",
    "b",
    "é",
  ];
  let seed = 7;
  const next = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed;
  };
  for (let n = 0; n < 3000; n++) {
    let search = "";
    const length = next() % 12;
    for (let i = 0; i < length; i++) search += pieces[next() % pieces.length];
    same(search);
  }
});
