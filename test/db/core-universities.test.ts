import { beforeAll, expect, test } from "bun:test";
import {
  getUniversity,
  ListUniversitiesParams,
  listUniversities,
  parseParams,
  UnirankError,
  type University,
} from "../../lib/index.ts";
import { ORDERS, UNIVERSITY_SORTS } from "../../lib/params/operations.ts";
import { describeEachDatabase } from "../support/databases.ts";
import { FIXTURE_UNIVERSITIES, writeFixture } from "../support/fixtures.ts";

const list = (get: () => { db: Parameters<typeof listUniversities>[0] }, raw: Record<string, string>) =>
  listUniversities(get().db, parseParams(ListUniversitiesParams, raw));

describeEachDatabase("core: listUniversities / getUniversity", (get) => {
  let ids = new Map<string, number>();
  beforeAll(async () => {
    ids = await writeFixture(get().db);
  });
  const domains = (rows: University[]) => rows.map((r) => r.domain);

  test("defaults: page 1, limit 20, sorted by name then id, total counts everything", async () => {
    const { data, meta } = await list(get, {});
    expect(meta).toEqual({ page: 1, limit: 20, total: FIXTURE_UNIVERSITIES.length });
    expect(data).toHaveLength(FIXTURE_UNIVERSITIES.length);
    const names = data.map((u) => u.name);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(Object.keys(data[0]!).sort()).toEqual(["country", "created_at", "domain", "id", "name"]);
  });

  test("country is case-insensitive on input and upper-case on output", async () => {
    for (const country of ["de", "DE", "dE"]) {
      const { data, meta } = await list(get, { country });
      expect(meta.total).toBe(3);
      expect(data.map((u) => u.country)).toEqual(["DE", "DE", "DE"]);
    }
    // Stored upper-case even when the record said "gb".
    const { data } = await list(get, { country: "gb" });
    expect(domains(data).sort()).toEqual(["iota.gb.example", "kappa.gb.example"]);
    expect((await list(get, { country: "zz" })).meta.total).toBe(0);
  });

  test("search is accent-, case- and width-insensitive, on name or domain", async () => {
    const find = async (search: string) => domains((await list(get, { search })).data);
    expect(await find("universite de montreal")).toEqual(["montreal.ca.example"]);
    expect(await find("UNIVERSITÉ DE MONTRÉAL")).toEqual(["montreal.ca.example"]);
    expect(await find("ｍｏｎｔｒｅａｌ")).toEqual(["montreal.ca.example"]);
    expect(await find("epsilon univ")).toEqual(["epsilon.de.example"]);
    expect(await find("ＥＰＳＩＬＯＮ")).toEqual(["epsilon.de.example"]);
    expect(await find("universitat alpha")).toEqual(["alpha.de.example"]);
    expect(await find("北山")).toEqual(["zeta.jp.example"]);
    expect(await find("kappa.gb")).toEqual(["kappa.gb.example"]);
    expect(await find("no such place")).toEqual([]);
  });

  test("LIKE metacharacters in search are literal", async () => {
    const find = async (search: string) => domains((await list(get, { search })).data);
    expect(await find("%")).toEqual(["gamma.us.example"]);
    expect(await find("100%")).toEqual(["gamma.us.example"]);
    expect(await find("_")).toEqual(["delta.us.example"]);
    expect(await find("a_t")).toEqual(["delta.us.example"]);
    expect(await find("\\")).toEqual([]);
    expect(await find("%_%")).toEqual([]);
  });

  test("search and country combine; total counts the filtered set", async () => {
    const { data, meta } = await list(get, { search: "university", country: "us", limit: "1" });
    expect(meta.total).toBe(3);
    expect(data).toHaveLength(1);
  });

  for (const sort of UNIVERSITY_SORTS) {
    for (const order of ORDERS) {
      test(`sort=${sort} order=${order}: key order, ties by id ascending, pages never overlap`, async () => {
        const all = await list(get, { sort, order, limit: "100" });
        const key = (u: University) => String(u[sort]);
        const expected = [...all.data].sort((a, b) => {
          const ka = key(a);
          const kb = key(b);
          const byKey = ka < kb ? -1 : ka > kb ? 1 : 0;
          return (order === "asc" ? byKey : -byKey) || a.id - b.id;
        });
        expect(domains(all.data)).toEqual(domains(expected));
        const seen: string[] = [];
        for (let page = 1; page <= 5; page++) {
          const { data, meta } = await list(get, { sort, order, limit: "3", page: String(page) });
          expect(meta.total).toBe(FIXTURE_UNIVERSITIES.length);
          seen.push(...domains(data));
        }
        expect(seen).toEqual(domains(expected));
        expect(new Set(seen).size).toBe(FIXTURE_UNIVERSITIES.length);
      });
    }
  }

  test("a page past the end is empty and keeps the total", async () => {
    expect(await list(get, { page: "99", limit: "5" })).toEqual({
      data: [],
      meta: { page: 99, limit: 5, total: FIXTURE_UNIVERSITIES.length },
    });
    const huge = await list(get, { page: "999999999999999", limit: "100" });
    expect(huge.data).toEqual([]);
    expect(huge.meta.total).toBe(FIXTURE_UNIVERSITIES.length);
  });

  test("getUniversity: scan_count counts completed scans only; latest_scan is the latest completed", async () => {
    const alpha = await getUniversity(get().db, ids.get("alpha.de.example")!);
    expect(alpha).toMatchObject({
      domain: "alpha.de.example",
      name: "Universität Alpha",
      country: "DE",
      created_at: "2024-01-01 00:00:00",
      scan_count: 2,
      latest_scan: { completed_at: "2026-01-10T12:00:00+00:00", overall_score: 90 },
    });
    const theta = await getUniversity(get().db, ids.get("theta.us.example")!);
    expect(theta.scan_count).toBe(0);
    expect(theta.latest_scan).toBeNull();
    const kappa = await getUniversity(get().db, ids.get("kappa.gb.example")!);
    expect(kappa.scan_count).toBe(2);
    expect(kappa.latest_scan?.overall_score).toBe(40);
  });

  test("getUniversity: an unknown id is NOT_FOUND", async () => {
    const error = await getUniversity(get().db, 987654).catch((e) => e);
    expect(error).toBeInstanceOf(UnirankError);
    expect(error.code).toBe("NOT_FOUND");
    expect(error.message).toContain("987654");
  });
});
