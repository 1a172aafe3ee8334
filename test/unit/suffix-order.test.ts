import { expect, test } from "bun:test";
import {
  searchIndexOf,
  searchMatches,
  searchPage,
  searchPageInOrder,
} from "../../lib/queries/search-index.ts";
import type { SearchOrder } from "../../lib/queries/search-orders.ts";
import { searchKey } from "../../lib/text/search-key.ts";
import {
  firstOffset,
  REPEAT_MIN,
  suffixByte,
  suffixOrder,
  suffixRange,
  textsInRange,
} from "../../lib/text/suffix-order.ts";

/** A seeded generator, so a failure names the same texts again. */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

const encoder = new TextEncoder();

/** The order that puts the rows as `rows` lists them. */
function searchOrderOf(rows: Int32Array): SearchOrder {
  const rank = new Int32Array(rows.length);
  rows.forEach((row, place) => {
    rank[row] = place;
  });
  return { rank, rows };
}

/** Texts of short words over a small alphabet, with multi-byte characters, so keys repeat within and across texts. */
function smallTexts(count: number, seed: number): string[] {
  const rnd = random(seed);
  const alphabet = ["a", "b", "c", "é", "大", "a", "b"];
  return Array.from({ length: count }, () => {
    const length = 1 + Math.floor(rnd() * 14);
    let text = "";
    for (let i = 0; i < length; i++)
      text += rnd() < 0.15 ? " " : alphabet[Math.floor(rnd() * alphabet.length)];
    return text;
  });
}

/** The texts joined as the search index joins them, where each starts, and which text each byte belongs to. */
function joined(texts: string[]): { bytes: Uint8Array; starts: Int32Array; textOf: (p: number) => number } {
  const owner: number[] = [];
  const starts = new Int32Array(texts.length);
  texts.forEach((t, i) => {
    starts[i] = owner.length;
    for (let k = 0; k <= encoder.encode(t).length; k++) owner.push(i);
  });
  const bytes = encoder.encode(`${texts.join("\u0000")}\u0000`);
  return { bytes, starts, textOf: (p) => owner[p] as number };
}

/** Each way a suffix order holds its suffixes: as text and offset (31 bits), and as byte offsets (too few bits). */
const ENTRY_BITS = [31, 8];

test("the suffixes are every character start, ordered by their bytes up to their text's end", () => {
  for (const [seed, entryBits] of [1, 2, 3].flatMap((seed) =>
    ENTRY_BITS.map((bits) => [seed, bits] as const),
  )) {
    const texts = smallTexts(300, seed);
    const { bytes, starts: textStarts, textOf } = joined(texts);
    const order = suffixOrder(bytes, textStarts, textOf, 0, entryBits);
    expect(order.offsetBits > 0).toBe(entryBits === 31);
    const starts: number[] = [];
    for (let p = 0; p < bytes.length; p++) {
      const b = bytes[p] as number;
      if (b !== 0 && (b & 0xc0) !== 0x80) starts.push(p);
    }
    const suffix = (p: number) => bytes.subarray(p, bytes.indexOf(0, p));
    const compare = (p: number, q: number) => {
      const a = suffix(p);
      const b = suffix(q);
      for (let i = 0; i < Math.min(a.length, b.length); i++) {
        if (a[i] !== b[i]) return (a[i] as number) - (b[i] as number);
      }
      return a.length - b.length;
    };
    const got = [...order.suffixes].map((suffix) => suffixByte(order, suffix));
    expect([...got].sort((p, q) => p - q)).toEqual(starts);
    // Suffixes that are equal up to their ends may come in any order.
    const unordered = got.filter((p, i) => i > 0 && compare(got[i - 1] as number, p) > 0);
    expect(unordered).toEqual([]);
    expect(got.filter((p, i) => i > 0 && compare(got[i - 1] as number, p) < 0).length).toBeGreaterThan(800);
  }
});

test.each(ENTRY_BITS)(
  "a key's range holds its occurrences, and the texts counted in it are the texts that hold it (%p-bit entries)",
  (entryBits) => {
    const texts = smallTexts(400, 7);
    const { bytes, starts, textOf } = joined(texts);
    const order = suffixOrder(bytes, starts, textOf, 0, entryBits);
    const keys = new Set<string>();
    for (const t of texts) {
      const chars = [...t];
      for (let i = 0; i < chars.length; i++) {
        for (let n = 1; n <= 6 && i + n <= chars.length; n++) keys.add(chars.slice(i, i + n).join(""));
      }
    }
    keys.add("zz");
    keys.add("a");
    keys.add("aaaaaaaaaaaaaaaaaaaa");
    let repeated = 0;
    for (const key of keys) {
      const needle = encoder.encode(key);
      const { from, to } = suffixRange(order, bytes, needle);
      let occurrences = 0;
      for (const t of texts) for (let i = t.indexOf(key); i !== -1; i = t.indexOf(key, i + 1)) occurrences++;
      expect({ key, occurrences: to - from }).toEqual({ key, occurrences });
      const least = Math.min(
        ...[...order.suffixes.subarray(from, to)].map((suffix) => suffixByte(order, suffix)),
      );
      if (to > from) expect({ key, first: firstOffset(order, from, to) }).toEqual({ key, first: least });
      if (needle.length < REPEAT_MIN) continue;
      const holding = texts.filter((t) => t.includes(key)).length;
      expect({ key, texts: textsInRange(order, from, to, needle.length) }).toEqual({ key, texts: holding });
      if (holding < occurrences) repeated++;
    }
    // Many keys occur twice in one text: the count is not the range's size.
    expect(repeated).toBeGreaterThan(20);
  },
);

/**
 * Texts whose keys take each way to a page: a dense key (the byte search from the first text), a rare one (the
 * range, sorted), a common one gathered at the end (the byte search gives up for the range), one in thousands of
 * texts (the range, marked), keys twice in one text, in three large countries and a small one (searched text by
 * text).
 */
function universities(count: number) {
  const rnd = random(11);
  const words = ["nord", "sud", "tech", "école", "πανεπιστημιο", "東京大学", "lab", "de la", "aaaa"];
  return Array.from({ length: count }, (_, i) => {
    const parts: string[] = [];
    if (rnd() < 0.6) parts.push("universite");
    for (let w = 0; w < 3; w++) parts.push(words[Math.floor(rnd() * words.length)] as string);
    if (i > count - 400) parts.push("zzyzx");
    if (i >= count - 1500) parts.push("ouest");
    if (rnd() < 0.01) parts.push("rareword rareword");
    if (rnd() < 0.45) parts.push("institut");
    parts.push(`d${i}.example`);
    // Twelve universities in a small country, searched one by one.
    const country = i % 500 === 7 ? "LU" : (["FR", "GR", "JP"][i % 3] as string);
    return { id: i + 1, country, search_text: parts.join(" ") };
  });
}

test.each(ENTRY_BITS)(
  "pages and counts equal a plain search of every text, whichever way they are found (%p-bit entries)",
  (entryBits) => {
    const rows = universities(6000);
    const index = searchIndexOf(rows, entryBits);
    expect(index.suffixes.offsetBits > 0).toBe(entryBits === 31);
    const keys = [
      "universite",
      "univ",
      "zzyzx",
      "rareword",
      "institut",
      "aaa",
      "aaaa",
      "aaaaa",
      "de la",
      "東京",
      "école",
    ];
    keys.push("example", "πανε", "d59", "d5999.", "nord tech", "no such", "é", "ni", "99", "e", "");
    for (const key of keys) {
      const want = rows.flatMap((r, i) => (r.search_text.includes(key) ? [i] : []));
      expect({ key, all: searchMatches(index, key) }).toEqual({ key, all: want });
      for (const country of ["FR", "JP", "LU"]) {
        const code = index.countryNames.indexOf(country);
        const inCountry = want.filter((row) => index.country[row] === code);
        expect({ key, country, rows: searchMatches(index, key, country) }).toEqual({
          key,
          country,
          rows: inCountry,
        });
        const { total, rows } = searchPage(index, key, country, 10, 20);
        const page = { total, rows };
        expect({ key, country, page }).toEqual({
          key,
          country,
          page: { total: inCountry.length, rows: inCountry.slice(10, 30) },
        });
      }
      for (const offset of [0, 20, 380, 500, 2500, Math.max(0, want.length - 5), want.length + 10]) {
        for (const limit of [1, 20, 100]) {
          const { total, rows } = searchPage(index, key, undefined, offset, limit);
          const page = { total, rows };
          expect({ key, offset, limit, page }).toEqual({
            key,
            offset,
            limit,
            page: { total: want.length, rows: want.slice(offset, offset + limit) },
          });
        }
      }
    }
  },
);

test.each(ENTRY_BITS)(
  "a page in another order: the matches in that order, walked when dense and placed otherwise (%p-bit entries)",
  (entryBits) => {
    const rows = universities(6000);
    const index = searchIndexOf(rows, entryBits);
    // Another order: a fixed shuffle of the rows.
    const rnd = random(5);
    const shuffled = Int32Array.from(rows, (_, i) => i);
    for (let i = shuffled.length - 1; i > 0; i--) {
      const j = Math.floor(rnd() * (i + 1));
      [shuffled[i], shuffled[j]] = [shuffled[j] as number, shuffled[i] as number];
    }
    // And the index's own order, where "ouest" is in the last 1,500 rows only: dense, but too far to walk to.
    const indexed = Int32Array.from(rows, (_, i) => i);
    const keys = [
      "universite",
      "univ",
      "institut",
      "zzyzx",
      "rareword",
      "aaaa",
      "de la",
      "東京",
      "no such",
      "ni",
    ];
    keys.push("example", "ouest");
    const short: string[] = [];
    for (const [name, inOrder] of [["shuffled", shuffled] as const, ["indexed", indexed] as const]) {
      const order = searchOrderOf(inOrder);
      for (const key of keys) {
        const want = [...inOrder].filter((row) =>
          (rows[row] as { search_text: string }).search_text.includes(key),
        );
        for (const offset of [0, 20, 500, 3000, 6000]) {
          const page = searchPageInOrder(index, key, order, offset, 20);
          const at = `${name} ${key}@${offset}`;
          if (page === null) {
            short.push(at);
            continue;
          }
          expect({ at, page }).toEqual({
            at,
            page: { total: want.length, rows: want.slice(offset, offset + 20) },
          });
        }
      }
    }
    // Only a key shorter than REPEAT_MIN bytes is left to the caller.
    expect(new Set(short.map((at) => at.split(" ")[1]?.split("@")[0]))).toEqual(new Set(["ni"]));
  },
);

test("on the bundled registry's real names, every way a page is found equals a plain search", async () => {
  const path = new URL("../../data/world_universities_and_domains.json", import.meta.url);
  const raw = (await Bun.file(path).json()) as {
    name: string;
    domains?: string[];
    alpha_two_code?: string;
  }[];
  const rows = raw
    .map((u, i) => ({
      id: i + 1,
      name: u.name,
      country: u.alpha_two_code ?? "",
      search_text: searchKey(`${u.name} ${u.domains?.[0] ?? ""}`),
    }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id));
  const index = searchIndexOf(rows);
  // Another order: by domain, descending.
  const byDomain = Int32Array.from(rows, (_, i) => i).sort((a, b) => {
    const x = (rows[a] as { search_text: string }).search_text;
    const y = (rows[b] as { search_text: string }).search_text;
    return x < y ? 1 : x > y ? -1 : a - b;
  });
  const domainOrder = searchOrderOf(byDomain);
  // Keys of one to eight characters cut from random names, in every script the registry holds.
  const rnd = random(17);
  const keys = new Set<string>(["univ", "university", "de", "大学", "u", "tech", "institut", "college"]);
  while (keys.size < 400) {
    const chars = [...(rows[Math.floor(rnd() * rows.length)] as { search_text: string }).search_text];
    const length = 1 + Math.floor(rnd() * 8);
    const start = Math.floor(rnd() * Math.max(1, chars.length - length));
    keys.add(chars.slice(start, start + length).join(""));
  }
  const countries = ["US", "IN", "JP", "DE", "IS", "LU", "BR"];
  let sortedPages = 0;
  for (const key of keys) {
    const want = rows.flatMap((r, i) => (r.search_text.includes(key) ? [i] : []));
    const { total, rows: page } = searchPage(index, key, undefined, 0, 20);
    expect({ key, total, page }).toEqual({ key, total: want.length, page: want.slice(0, 20) });
    const far = searchPage(index, key, undefined, 40, 20);
    expect({ key, far: far.rows }).toEqual({ key, far: want.slice(40, 60) });
    const wanted = new Set(want);
    const inDomain = [...byDomain].filter((row) => wanted.has(row));
    // Dense keys ("univ") are walked to, rare ones placed; a key shorter than REPEAT_MIN bytes is the caller's.
    const sorted = searchPageInOrder(index, key, domainOrder, 0, 20);
    if (sorted === null)
      expect({ key, short: encoder.encode(key).length < REPEAT_MIN }).toEqual({ key, short: true });
    else {
      sortedPages++;
      expect({ key, sorted }).toEqual({ key, sorted: { total: want.length, rows: inDomain.slice(0, 20) } });
    }
    const country = countries[key.length % countries.length] as string;
    const code = index.countryNames.indexOf(country);
    const inCountry = want.filter((row) => index.country[row] === code);
    const there = searchPage(index, key, country, 0, 20);
    expect({ key, country, total: there.total, rows: there.rows }).toEqual({
      key,
      country,
      total: inCountry.length,
      rows: inCountry.slice(0, 20),
    });
  }
  // Both the index's sorted pages and the caller's were asked for.
  expect(sortedPages).toBeGreaterThan(20);
  expect(sortedPages).toBeLessThan(keys.size - 20);
});
