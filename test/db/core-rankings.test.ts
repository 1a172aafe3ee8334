import { beforeAll, expect, test } from "bun:test";
import {
  type DB,
  parseParams,
  RANKING_SORTS,
  type RankingEntry,
  RankingsParams,
  rankings,
  UnirankError,
  writeRecords,
} from "../../lib/index.ts";
import { describeEachDatabase, seedSmall } from "../support/databases.ts";
import { OVERALL_RANKING, writeFixture } from "../support/fixtures.ts";

const rank = (db: DB, raw: Record<string, string>) => rankings(db, parseParams(RankingsParams, raw));
/** The fixture's scans are imported without a profile: one profile, `unknown`, ranked by default. */
const MAIN = { profile: "unknown", profiles: { unknown: OVERALL_RANKING.length } };
const pairs = (data: RankingEntry[]) => data.map((e) => [e.domain, e.rank]);

describeEachDatabase("core: rankings", (get) => {
  beforeAll(async () => {
    await writeFixture(get().db);
  });

  test("competition ranks with ties (1, 2, 2, 2, 5), ties by id; unscanned universities absent", async () => {
    const { data, meta } = await rank(get().db, {});
    expect(meta).toEqual({ page: 1, limit: 50, total: OVERALL_RANKING.length, ...MAIN });
    expect(data.map((e) => [e.domain, e.rank, e.overall_score])).toEqual(OVERALL_RANKING);
    expect(data.map((e) => e.domain)).not.toContain("eta.de.example");
    expect(data.map((e) => e.domain)).not.toContain("theta.us.example");
    expect(data[0]).toEqual({
      rank: 1,
      id: data[0]!.id,
      domain: "alpha.de.example",
      name: "Universität Alpha",
      country: "DE",
      overall_score: 90,
      webometrics_score: 95,
      technical_score: 88,
      research_score: 90,
      presence_score: 85,
    });
  });

  test("ranks keep their numbers across pages, also when a page starts inside a tie", async () => {
    const seen: (string | number)[][] = [];
    for (let page = 1; page <= 4; page++) {
      const { data, meta } = await rank(get().db, { limit: "2", page: String(page) });
      expect(meta.total).toBe(OVERALL_RANKING.length);
      seen.push(...pairs(data));
    }
    expect(seen).toEqual(OVERALL_RANKING.slice(0, 8).map(([d, r]) => [d, r]));
    const fifth = await rank(get().db, { limit: "2", page: "5" });
    expect(pairs(fifth.data)).toEqual([["kappa.gb.example", 9]]);
    const past = await rank(get().db, { limit: "2", page: "6" });
    expect(past).toEqual({ data: [], meta: { page: 6, limit: 2, total: OVERALL_RANKING.length, ...MAIN } });
  });

  test("country filter ranks among that country only (case-insensitive)", async () => {
    const us = await rank(get().db, { country: "us" });
    expect(pairs(us.data)).toEqual([
      ["gamma.us.example", 1],
      ["lambda.us.example", 1],
      ["delta.us.example", 3],
    ]);
    expect(us.meta.total).toBe(3);
    expect(us.data.every((e) => e.country === "US")).toBe(true);
    const de = await rank(get().db, { country: "DE" });
    expect(pairs(de.data)).toEqual([
      ["alpha.de.example", 1],
      ["epsilon.de.example", 2],
    ]);
  });

  test("min_score/max_score window keeps rank numbers; total counts the window; bounds inclusive", async () => {
    const w = await rank(get().db, { min_score: "60", max_score: "80" });
    expect(pairs(w.data)).toEqual([
      ["montreal.ca.example", 2],
      ["gamma.us.example", 2],
      ["lambda.us.example", 2],
      ["delta.us.example", 5],
      ["epsilon.de.example", 6],
      ["zeta.jp.example", 7],
      ["iota.gb.example", 7],
    ]);
    expect(w.meta.total).toBe(7);
    // A page of the window that begins inside a tie.
    const p2 = await rank(get().db, { min_score: "60", max_score: "80", limit: "2", page: "2" });
    expect(pairs(p2.data)).toEqual([
      ["lambda.us.example", 2],
      ["delta.us.example", 5],
    ]);
    expect(p2.meta.total).toBe(7);
    const onlyMin = await rank(get().db, { min_score: "80" });
    expect(onlyMin.meta.total).toBe(4);
    const onlyMax = await rank(get().db, { max_score: "59.9" });
    expect(pairs(onlyMax.data)).toEqual([["kappa.gb.example", 9]]);
    const equal = await rank(get().db, { min_score: "65", max_score: "65" });
    expect(pairs(equal.data)).toEqual([["epsilon.de.example", 6]]);
    const empty = await rank(get().db, { min_score: "99.5" });
    expect(empty).toEqual({ data: [], meta: { page: 1, limit: 50, total: 0, ...MAIN } });
    const withCountry = await rank(get().db, { country: "us", max_score: "75" });
    expect(pairs(withCountry.data)).toEqual([["delta.us.example", 3]]);
  });

  test("min_score > max_score is INVALID_PARAMETER naming both", async () => {
    const error = await rank(get().db, { min_score: "70", max_score: "60" }).catch((e) => e);
    expect(error).toBeInstanceOf(UnirankError);
    expect(error.code).toBe("INVALID_PARAMETER");
    expect(error.details.map((d: { param: string }) => d.param)).toEqual(["min_score", "max_score"]);
  });

  test("every sort ranks by its score; a null score leaves the university out of that ranking", async () => {
    const webo = await rank(get().db, { sort: "webometrics" });
    expect(webo.data.map((e) => [e.domain, e.rank, e.webometrics_score])).toEqual([
      ["delta.us.example", 1, 99],
      ["alpha.de.example", 2, 95],
      ["montreal.ca.example", 3, 70],
      ["gamma.us.example", 4, 60],
      ["lambda.us.example", 5, 55],
      ["kappa.gb.example", 6, 45],
      ["zeta.jp.example", 7, 30],
      ["epsilon.de.example", 8, 20],
    ]);
    expect(webo.meta.total).toBe(8);
    const tech = await rank(get().db, { sort: "technical" });
    expect(tech.data.map((e) => e.technical_score)).toEqual([90, 88, 85, 70, 55, 40, 30, 20, 10]);
    const research = await rank(get().db, { sort: "research" });
    expect(research.data.map((e) => e.rank)).toEqual([1, 2, 2, 2, 2, 2, 2, 2, 2]);
    const presence = await rank(get().db, { sort: "presence", limit: "3", page: "2" });
    expect(presence.data.map((e) => e.rank)).toEqual([2, 2, 2]);
    expect(Object.keys(RANKING_SORTS)).toEqual([
      "overall",
      "webometrics",
      "technical",
      "research",
      "presence",
    ]);
  });

  test("a university whose country changes moves to that country's ranking", async () => {
    await writeRecords(get().db, [
      { type: "university", domain: "epsilon.de.example", name: "ＥＰＳＩＬＯＮ University", country: "AT" },
    ]);
    const at = await rank(get().db, { country: "at" });
    expect(pairs(at.data)).toEqual([["epsilon.de.example", 1]]);
    const de = await rank(get().db, { country: "de" });
    expect(pairs(de.data)).toEqual([["alpha.de.example", 1]]);
    await writeRecords(get().db, [
      { type: "university", domain: "epsilon.de.example", name: "ＥＰＳＩＬＯＮ University", country: "DE" },
    ]);
    expect((await rank(get().db, { country: "de" })).meta.total).toBe(2);
  });

  test("pages never overlap and together equal total on a generated dataset, for every sort", async () => {
    await seedSmall(get().db, 80, 11);
    for (const sort of Object.keys(RANKING_SORTS)) {
      const full = await rank(get().db, { sort, limit: "100" });
      const seen: RankingEntry[] = [];
      for (let page = 1; ; page++) {
        const { data } = await rank(get().db, { sort, limit: "7", page: String(page) });
        if (data.length === 0) break;
        seen.push(...data);
      }
      expect(seen.length).toBe(full.meta.total);
      expect(new Set(seen.map((e) => e.id)).size).toBe(seen.length);
      expect(pairs(seen)).toEqual(pairs(full.data));
      // Competition rank recomputed independently from the scores.
      expect(full.meta.total).toBeLessThanOrEqual(100);
      const key = `${sort}_score` as keyof RankingEntry;
      const scores = full.data.map((e) => e[key] as number);
      const expected = scores.map((s) => scores.filter((x) => x > s).length + 1);
      expect(full.data.map((e) => e.rank)).toEqual(expected);
      for (let i = 1; i < full.data.length; i++) {
        const a = full.data[i - 1]!;
        const b = full.data[i]!;
        expect((a[key] as number) > (b[key] as number) || a.id < b.id).toBe(true);
      }
    }
  });
});
