import { beforeAll, describe, expect, test } from "bun:test";
import {
  getScan,
  getUniversity,
  type IngestRecord,
  leaderboard,
  profileCensus,
  rankings,
  regressions,
  scoreDistribution,
  universityRanking,
  writeRecords,
} from "../../lib/index.ts";
import { describeEachDatabase } from "../support/databases.ts";
import { appClient, type Client, testContext } from "../support/fixtures-app.ts";

/**
 * Like with like (docs/scores.md): overall and composites rank within one profile, the main one by default;
 * sub-scores rank across profiles; regressions of overall compare scans of one profile; v1 ranks everyone.
 */

const NOW = new Date("2026-06-30T00:00:00Z");

const university = (domain: string, country = "NL"): IngestRecord => ({
  type: "university",
  domain,
  name: domain,
  country,
});

const scan = (
  domain: string,
  sourceId: string,
  day: string,
  profile: string | undefined,
  overall: number,
  ssl: number,
): IngestRecord => ({
  type: "scan",
  source_id: sourceId,
  domain,
  status: "completed",
  started_at: `2026-06-${day}T00:00:00+00:00`,
  completed_at: `2026-06-${day}T00:00:00+00:00`,
  ...(profile === undefined ? {} : { profile }),
  overall_score: overall,
  tech_ssl_score: ssl,
});

const FULL = "site,browser";

// biome-ignore lint/suspicious/noExplicitAny: answers are read field by field
type Json = any;

async function call(client: Client, path: string) {
  const response = await client.fetch(path);
  return { status: response.status, body: (await response.json()) as Json };
}

describeEachDatabase("like with like: profiles", (get) => {
  const db = () => get().db;

  beforeAll(async () => {
    await get().reset();
    await writeRecords(db(), [
      ...["a1", "a2", "a3", "s1", "s2", "k1", "r1", "r2"].map((d) => university(`${d}.example`)),
      scan("a1.example", "a1", "20", FULL, 70, 90),
      scan("a2.example", "a2", "20", "browser,site", 60, 80),
      scan("a3.example", "a3", "20", FULL, 50, 70),
      scan("s1.example", "s1", "20", "site", 95, 100),
      scan("s2.example", "s2", "20", "site", 40, 60),
      scan("k1.example", "k1", "20", undefined, 80, 75),
      // r1: its latest scan has a browser, its previous none; overall fell 30 points, TLS 40.
      scan("r1.example", "r1-old", "10", "site", 90, 90),
      scan("r1.example", "r1-new", "25", FULL, 60, 50),
      // r2: two scans of one profile; overall fell 20 points.
      scan("r2.example", "r2-old", "10", FULL, 85, 85),
      scan("r2.example", "r2-new", "25", FULL, 65, 85),
    ]);
  });

  test("the census: universities per profile of their latest scan, the main profile first; profiles stored canonical", async () => {
    expect(await profileCensus(db())).toEqual({ [FULL]: 5, site: 2, unknown: 1 });
    expect(Object.keys(await profileCensus(db()))[0]).toBe(FULL);
  });

  test("overall ranks the main profile by default; profile= picks another, all ranks everyone", async () => {
    const main = await rankings(db());
    expect(main.data.map((e) => [e.domain, e.rank])).toEqual([
      ["a1.example", 1],
      ["r2.example", 2],
      ["a2.example", 3],
      ["r1.example", 3],
      ["a3.example", 5],
    ]);
    expect(main.meta).toEqual({
      page: 1,
      limit: 50,
      total: 5,
      profile: FULL,
      profiles: { [FULL]: 5, site: 2, unknown: 1 },
    });
    const site = await rankings(db(), { profile: "site" });
    expect(site.data.map((e) => [e.domain, e.rank])).toEqual([
      ["s1.example", 1],
      ["s2.example", 2],
    ]);
    expect(site.meta.profile).toBe("site");
    const all = await rankings(db(), { profile: "all" });
    expect(all.data.map((e) => e.domain)).toEqual([
      "s1.example",
      "k1.example",
      "a1.example",
      "r2.example",
      "a2.example",
      "r1.example",
      "a3.example",
      "s2.example",
    ]);
    expect(all.meta.profile).toBeNull();
    // The composites' rankings follow the same rule.
    expect((await rankings(db(), { sort: "technical" })).meta.profile).toBe(FULL);
    await expect(rankings(db(), { profile: "site,site" })).rejects.toMatchObject({
      code: "INVALID_PARAMETER",
    });
  });

  test("a sub-score's leaderboard ranks every profile; overall's the main one", async () => {
    const ssl = await leaderboard(db(), "ssl", { limit: 20 });
    expect(ssl.meta.profile).toBeNull();
    expect(ssl.data.map((e) => e.university.domain)).toEqual([
      "s1.example",
      "a1.example",
      "r2.example",
      "a2.example",
      "k1.example",
      "a3.example",
      "s2.example",
      "r1.example",
    ]);
    const overall = await leaderboard(db(), "overall", { limit: 20 });
    expect(overall.meta).toMatchObject({ profile: FULL, total: 5 });
    expect((await leaderboard(db(), "overall", { profile: "unknown" })).data.map((e) => e.score)).toEqual([
      80,
    ]);
  });

  test("regressions of overall compare scans of one profile; a sub-score's compare any two", async () => {
    const clock = () => NOW;
    const overall = await regressions(db(), { category: "overall" }, { clock });
    expect(overall.data.map((r) => [r.university.domain, r.drop])).toEqual([["r2.example", 20]]);
    const ssl = await regressions(db(), { category: "ssl" }, { clock });
    expect(ssl.data.map((r) => [r.university.domain, r.drop])).toEqual([["r1.example", 40]]);
  });

  test("a distribution of overall holds the main profile; of a sub-score, every profile", async () => {
    const overall = await scoreDistribution(db());
    expect(overall.meta).toMatchObject({ measured: 5, profile: FULL });
    const ssl = await scoreDistribution(db(), { score: "tech_ssl_score" });
    expect(ssl.meta).toMatchObject({ measured: 8, profile: null });
  });

  test("a university's rank line ranks it among universities of its own profile", async () => {
    const rankOf = async (domain: string) => {
      const u = await db()
        .selectFrom("universities")
        .select("id")
        .where("domain", "=", domain)
        .executeTakeFirstOrThrow();
      return universityRanking(db(), await getUniversity(db(), Number(u.id)));
    };
    expect(await rankOf("s2.example")).toMatchObject({ profile: "site", rank: 2, total: 2, country_rank: 2 });
    expect(await rankOf("a2.example")).toMatchObject({ profile: FULL, rank: 3, total: 5, country_total: 5 });
    expect(await rankOf("k1.example")).toMatchObject({ profile: "unknown", rank: 1, total: 1 });
  });

  test("a scan names its profile and rubric version", async () => {
    const id = Number(
      (await db().selectFrom("scans").select("id").where("source_id", "=", "a2").executeTakeFirstOrThrow())
        .id,
    );
    expect(await getScan(db(), id)).toMatchObject({ profile: FULL, rubric_version: null });
  });

  describe("over HTTP", () => {
    let client: Client;
    beforeAll(() => {
      client = appClient({ ...testContext(db()), clock: () => NOW });
    });

    test("v1 rankings rank every university with v1's meta; profile= narrows them", async () => {
      const all = await call(client, "/api/v1/rankings");
      expect(all.status).toBe(200);
      expect(all.body.meta).toEqual({ page: 1, limit: 50, total: 8 });
      const site = await call(client, "/api/v1/rankings?profile=site");
      expect(site.body.data.map((e: { domain: string }) => e.domain)).toEqual(["s1.example", "s2.example"]);
    });

    test("v2 rankings and leaderboards say which profile they rank; a bad profile is a 400 naming it", async () => {
      const main = await call(client, "/api/v2/rankings");
      expect(main.body.meta).toMatchObject({ total: 5, profile: FULL, profiles: { [FULL]: 5 } });
      const given = await call(client, "/api/v2/rankings?profile=browser,site");
      expect(given.body.meta.profile).toBe(FULL);
      for (const bad of ["bogus", "site,site", "SITE", ""]) {
        const r = await call(client, `/api/v2/rankings?profile=${bad}`);
        expect([bad, r.status]).toEqual([bad, 400]);
        expect(r.body.error.details.map((d: { param: string }) => d.param)).toEqual(["profile"]);
      }
      const board = await call(client, "/api/v2/leaderboard/ssl?limit=3");
      expect(board.body.meta).toMatchObject({ category: "ssl", profile: null, total: 8 });
      const scanId = (await call(client, "/api/v2/leaderboard/overall?limit=1")).body.data[0].scan_id;
      const detail = await call(client, `/api/v2/scans/${scanId}`);
      expect(detail.body.data).toMatchObject({ profile: FULL, rubric_version: null });
    });

    test("a walk keeps the profile it began with, whatever becomes main meanwhile", async () => {
      const first = await call(client, "/api/v2/rankings?cursor=*&limit=2");
      expect(first.body.meta).toMatchObject({ profile: FULL, total: 5 });
      const seen = first.body.data.map((e: { domain: string }) => e.domain);
      // Four more universities measured without a browser: `site` becomes the main profile.
      await writeRecords(db(), [
        ...["n1", "n2", "n3", "n4"].map((d) => university(`${d}.example`)),
        ...["n1", "n2", "n3", "n4"].map((d) => scan(`${d}.example`, d, "26", "site", 99, 99)),
      ]);
      expect(Object.keys(await profileCensus(db()))[0]).toBe("site");
      let cursor = first.body.meta.next_cursor;
      while (cursor) {
        const page = await call(client, `/api/v2/rankings?cursor=${encodeURIComponent(cursor)}&limit=2`);
        expect(page.body.meta.profile).toBe(FULL);
        seen.push(...page.body.data.map((e: { domain: string }) => e.domain));
        cursor = page.body.meta.next_cursor;
      }
      expect(seen).toEqual(["a1.example", "r2.example", "a2.example", "r1.example", "a3.example"]);
      // A new walk ranks the new main profile.
      expect((await call(client, "/api/v2/rankings?cursor=*")).body.meta.profile).toBe("site");
    });
  });
});

describeEachDatabase("the main profile", (get) => {
  test("ties go to the profile with more parts; the main profile follows the data", async () => {
    await get().reset();
    const db = get().db;
    await writeRecords(db, [
      ...["p1", "p2", "p3", "p4", "p5"].map((d) => university(`${d}.example`)),
      scan("p1.example", "p1", "20", "site", 50, 50),
      scan("p2.example", "p2", "20", "site", 50, 50),
      scan("p3.example", "p3", "20", "site,openalex", 50, 50),
      scan("p4.example", "p4", "20", "openalex,site", 50, 50),
    ]);
    expect((await rankings(db)).meta.profile).toBe("site,openalex");
    await writeRecords(db, [scan("p5.example", "p5", "20", "site", 50, 50)]);
    expect((await rankings(db)).meta).toMatchObject({ profile: "site", total: 3 });
  });
});
