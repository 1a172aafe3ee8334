import { beforeAll, expect, test } from "bun:test";
import { sql } from "kysely";
import {
  type IngestRecord,
  ListUniversitiesParams,
  listUniversities,
  parseParams,
  writeRecords,
} from "../../lib/index.ts";
import { searchIndex, searchIndexOf } from "../../lib/queries/search-index.ts";
import { escapeLike, searchKey } from "../../lib/text/search-key.ts";
import { describeEachDatabase } from "../support/databases.ts";

/**
 * The search index (a suffix order for keys of three bytes or more, a byte search below that) answers exactly
 * what a LIKE over the folded names answers, on every database: accents, case, full width, non-Latin scripts,
 * LIKE metacharacters, keys shorter than three bytes, keys across words and keys found nowhere.
 */
const NAMES: [string, string, string][] = [
  ["Université de Montréal", "umontreal.ca.example", "CA"],
  ["UNIVERSITE DE MONTREAL Annex", "annex.ca.example", "CA"],
  ["ＵＮＩＶＥＲＳＩＴＹ of Width", "width.jp.example", "JP"],
  ["Technische Universität München", "tum.de.example", "DE"],
  ["Uniwersytet Łódzki", "lodz.pl.example", "PL"],
  ["Московский государственный университет", "msu.ru.example", "RU"],
  ["Εθνικό και Καποδιστριακό Πανεπιστήμιο Αθηνών", "uoa.gr.example", "GR"],
  ["東京大学", "u-tokyo.jp.example", "JP"],
  ["北京大学", "pku.cn.example", "CN"],
  ["東北大学", "tohoku.jp.example", "JP"],
  ["האוניברסיטה העברית בירושלים", "huji.il.example", "IL"],
  ["جامعة القاهرة", "cu.eg.example", "EG"],
  ["จุฬาลงกรณ์มหาวิทยาลัย", "chula.th.example", "TH"],
  ["서울대학교", "snu.kr.example", "KR"],
  ["100% Online University", "percent.us.example", "US"],
  ["Under_score Institute", "under.us.example", "US"],
  ["Back\\slash College", "back.us.example", "US"],
  ["İstanbul Teknik Üniversitesi", "itu.tr.example", "TR"],
  ["Ångström Laboratory Høgskole", "angstrom.se.example", "SE"],
  ["University of the Same Name", "same-a.us.example", "US"],
  ["University of the Same Name", "same-b.us.example", "US"],
  ["aaaa aaa", "repeat.us.example", "US"],
];

const KEYS = [
  ...["u", "é", "ü", "л", "大", "%", "_", "\\", " ", ".", "-", "a", "z"],
  ...["un", "ün", "mo", "大学", "ко", "ερ", "אוניב", "ni", "aa", "de", "%_"],
  ...[
    "université",
    "UNIVERSITÉ",
    "Montréal",
    "montreal",
    "ｍｏｎｔｒｅａｌ",
    "univ",
    "niver",
    "ersit",
    "ität",
  ],
  ...["münchen", "MÜNCHEN", "łódz", "lodz", "университет", "УНИВЕРСИТЕТ", "πανεπιστημιο", "ΠΑΝΕΠΙΣΤΉΜΙΟ"],
  ...["東京", "東京大学", "北", "大學", "ירושלים", "القاهرة", "มหาวิทยาลัย", "대학교", "서울대"],
  ...["100%", "0% o", "r_s", "k\\s", "istanbul", "i̇stanbul", "üniversitesi", "angstrom", "hogskole"],
  ...["de montreal annex", "of the same", "same name", "e n", "aaa", "aaaa", "aaaaa", "aaa aaa", "a a"],
  ...[".example", "ca.example", "-b.us", "u-tokyo", "no such place", "xyz", "qqq", "éé", "大大"],
  // Folds to nothing: in every name, as in the LIKE.
  "\u0301",
];

/** Every substring of a few folded names, of one to six characters. */
function substrings(): string[] {
  const out = new Set<string>();
  for (const [name] of NAMES.slice(0, 14)) {
    const chars = [...searchKey(name)];
    for (let length = 1; length <= 6; length++) {
      for (let i = 0; i + length <= chars.length; i += 3) out.add(chars.slice(i, i + length).join(""));
    }
  }
  return [...out];
}

describeEachDatabase("search index: the same answers as a LIKE over the folded names", (get) => {
  beforeAll(async () => {
    // Creation times in three groups, so that sorting by them has ties (broken by id).
    const records: IngestRecord[] = NAMES.map(([name, domain, country], i) => ({
      type: "university",
      name,
      domain,
      country,
      created_at: `2024-01-0${1 + ((i * 7) % 3)}T00:00:00Z`,
    }));
    await writeRecords(get().db, records);
  });

  /** The reference: a LIKE over `search_text`, in the default order (name, then id). */
  const viaLike = async (search: string, country?: string) => {
    let q = get()
      .db.selectFrom("universities")
      .select("id")
      .where(sql<boolean>`search_text like ${`%${escapeLike(searchKey(search))}%`} escape '\\'`);
    if (country !== undefined) q = q.where("country", "=", country);
    const rows = await q.orderBy("name").orderBy("id").execute();
    return rows.map((r) => Number(r.id));
  };
  const viaIndex = async (search: string, extra: Record<string, string> = {}) => {
    const { data, meta } = await listUniversities(
      get().db,
      parseParams(ListUniversitiesParams, { search, limit: "100", ...extra }),
    );
    return { ids: data.map((u) => u.id), total: meta.total };
  };

  test("every key: the same universities in the same order, and the same total", async () => {
    const keys = [...KEYS, ...substrings()];
    let found = 0;
    for (const key of keys) {
      const want = await viaLike(key);
      const got = await viaIndex(key);
      expect({ key, ids: got.ids, total: got.total }).toEqual({ key, ids: want, total: want.length });
      if (want.length > 0) found++;
    }
    // The keys reach both sides: most match something, some match nothing.
    expect(found).toBeGreaterThan(keys.length / 2);
    expect(found).toBeLessThan(keys.length);
  });

  test("with a country filter, and paged", async () => {
    for (const key of ["大学", "university", "univ", "u", "de", ".example", "東京"]) {
      for (const country of ["JP", "US", "CA"]) {
        const want = await viaLike(key, country);
        const got = await viaIndex(key, { country: country.toLowerCase() });
        expect({ key, country, ...got }).toEqual({ key, country, ids: want, total: want.length });
      }
      const want = await viaLike(key);
      const pages: number[] = [];
      for (let page = 1; page <= Math.ceil(want.length / 2) + 1; page++) {
        const got = await viaIndex(key, { limit: "2", page: String(page) });
        expect(got.total).toBe(want.length);
        pages.push(...got.ids);
      }
      expect(pages).toEqual(want);
    }
  });

  test("every other sort and order: the order the database gives, ties by id, paged", async () => {
    /** The reference: a LIKE over `search_text`, sorted by the database. */
    const sortedViaLike = async (search: string, sort: string, order: "asc" | "desc", country?: string) => {
      let q = get()
        .db.selectFrom("universities")
        .select("id")
        .where(sql<boolean>`search_text like ${`%${escapeLike(searchKey(search))}%`} escape '\\'`);
      if (country !== undefined) q = q.where("country", "=", country);
      const column = sort as "name" | "domain" | "country" | "created_at";
      const rows = await q.orderBy(column, order).orderBy("id", "asc").execute();
      return rows.map((r) => Number(r.id));
    };
    let compared = 0;
    for (const sort of ["name", "domain", "country", "created_at"]) {
      for (const order of ["asc", "desc"] as const) {
        for (const key of [
          "大学",
          "univ",
          "u",
          "%",
          "aaa",
          "ｍｏｎｔｒｅａｌ",
          ".example",
          "e",
          "no such place",
        ]) {
          const want = await sortedViaLike(key, sort, order);
          const got = await viaIndex(key, { sort, order });
          expect({ sort, order, key, ...got }).toEqual({ sort, order, key, ids: want, total: want.length });
          for (const country of ["JP", "US"]) {
            const inCountry = await sortedViaLike(key, sort, order, country);
            const got = await viaIndex(key, { sort, order, country: country.toLowerCase() });
            expect({ sort, order, key, country, ...got }).toEqual({
              sort,
              order,
              key,
              country,
              ids: inCountry,
              total: inCountry.length,
            });
          }
          const pages: number[] = [];
          for (let page = 1; page <= Math.ceil(want.length / 3) + 1; page++) {
            const got = await viaIndex(key, { sort, order, limit: "3", page: String(page) });
            expect(got.total).toBe(want.length);
            pages.push(...got.ids);
          }
          expect({ sort, order, key, pages }).toEqual({ sort, order, key, pages: want });
          if (want.length > 1) compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(40);
  });

  test("the list without a search: every sort and order, with and without a country, paged", async () => {
    const viaSql = async (sort: string, order: "asc" | "desc", country?: string) => {
      let q = get().db.selectFrom("universities").select("id");
      if (country !== undefined) q = q.where("country", "=", country);
      const column = sort as "name" | "domain" | "country" | "created_at";
      return (await q.orderBy(column, order).orderBy("id", "asc").execute()).map((r) => Number(r.id));
    };
    const list = async (extra: Record<string, string>) => {
      const { data, meta } = await listUniversities(get().db, parseParams(ListUniversitiesParams, extra));
      return { ids: data.map((u) => u.id), total: meta.total };
    };
    for (const sort of ["name", "domain", "country", "created_at"]) {
      for (const order of ["asc", "desc"] as const) {
        for (const country of [undefined, "JP", "US", "XX"]) {
          const want = await viaSql(sort, order, country);
          const filter: Record<string, string> =
            country === undefined ? {} : { country: country.toLowerCase() };
          expect({ sort, order, country, ...(await list({ sort, order, limit: "100", ...filter })) }).toEqual(
            {
              sort,
              order,
              country,
              ids: want,
              total: want.length,
            },
          );
          const pages: number[] = [];
          for (let page = 1; page <= Math.ceil(want.length / 4) + 1; page++) {
            const got = await list({ sort, order, limit: "4", page: String(page), ...filter });
            expect(got.total).toBe(want.length);
            pages.push(...got.ids);
          }
          expect({ sort, order, country, pages }).toEqual({ sort, order, country, pages: want });
        }
      }
    }
  });

  test("a write is searched at once (the index follows the universities generation)", async () => {
    expect((await viaIndex("zzyzx")).total).toBe(0);
    await writeRecords(get().db, [
      {
        type: "university",
        name: "Zzyzx Desert Studies Center",
        domain: "zzyzx.us.example",
        country: "US",
        created_at: "2024-01-02T00:00:00Z",
      },
    ]);
    expect((await viaIndex("zzyzx")).total).toBe(1);
    expect((await viaIndex("ZZYZX DESERT")).ids).toEqual(await viaLike("zzyzx desert"));
  });
});

describeEachDatabase("search index: built in runs, the same index as from one ordered read", (get) => {
  // More universities than one run of texts (5,000) and one run of their encoding, in several scripts.
  const COUNT = 11_000;
  const WORDS = [
    "Université",
    "東京",
    "Московский",
    "Łódź",
    "University",
    "대학교",
    "Ελλάδα",
    "جامعة",
    "Ångström",
  ];
  beforeAll(async () => {
    const records: IngestRecord[] = Array.from({ length: COUNT }, (_, i) => ({
      type: "university",
      name: `${WORDS[i % WORDS.length]} ${WORDS[(i * 7) % WORDS.length]} ${(i * 7919) % COUNT}`,
      domain: `u${i}.runs.example`,
      country: ["DE", "JP", "RU", "PL", "US", "KR"][i % 6] as string,
    }));
    await writeRecords(get().db, records);
  }, 180_000);

  test("the same bytes, starts, suffix order and countries; other work runs while it builds", async () => {
    const { db } = get();
    let ticks = 0;
    let building = true;
    const tick = () => {
      ticks++;
      if (building) setImmediate(tick);
    };
    setImmediate(tick);
    const built = await searchIndex(db);
    building = false;
    // At least one pause a run of texts read, besides those of the encoding and the sort.
    expect(ticks).toBeGreaterThanOrEqual(Math.ceil(COUNT / 5_000));
    const rows = await db
      .selectFrom("universities")
      .select(["id", "country", "search_text"])
      .orderBy("name")
      .orderBy("id")
      .execute();
    const once = searchIndexOf(rows);
    expect(built.ids).toEqual(once.ids);
    expect(Buffer.from(built.bytes.bytes).equals(Buffer.from(once.bytes.bytes))).toBe(true);
    expect(built.starts).toEqual(once.starts);
    expect(built.blocks).toEqual(once.blocks);
    expect(built.suffixes).toEqual(once.suffixes);
    const countries = (index: typeof built) => Array.from(index.country, (c) => index.countryNames[c]);
    expect(countries(built)).toEqual(countries(once));
    expect(built.ids.length).toBe(COUNT);
  }, 120_000);
});
