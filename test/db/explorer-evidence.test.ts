import { beforeAll, describe, expect, test } from "bun:test";
import { sql } from "kysely";
import { setGenerationWindow } from "../../lib/db/generation.ts";
import {
  type CheckChange,
  CountryCountsSchema,
  compare,
  countryCounts,
  getUniversity,
  listUniversities,
  rankings,
  ScanDiffSchema,
  scanDiff,
  UniversityDetailSchema,
  universityRanking,
  writeRecords,
} from "../../lib/index.ts";
import { checkChanges } from "../../lib/queries/scan-diff.ts";
import type { CheckPoints } from "../../lib/scores/check-points.ts";
import { describeEachDatabase } from "../support/databases.ts";
import { appClient, testContext } from "../support/fixtures-app.ts";
import { expectMatches } from "../support/json-schema.ts";
import { V2_UNIVERSITIES, type V2Ids, writeV2Fixture } from "../support/v2-fixture.ts";

/**
 * What the explorer's evidence views read: the checks that changed between two scans (`/scan-diff`), a
 * university's overall rank (`/universities/{id}`) and the universities per country (`/countries`).
 */

const S = "tech_security_headers_score";
const check = (
  id: string,
  points: number,
  max: number,
  detail: string,
  score = S,
  remediation: string | null = points >= max ? null : `fix ${id}`,
): CheckPoints => ({
  id,
  score: score as CheckPoints["score"],
  label: `Label of ${id}`,
  points,
  max,
  detail,
  remediation,
});

/** Scan a: every header; scan b: X-Content-Type-Options removed, the referrer policy weakened. */
const BEFORE: CheckPoints[] = [
  check("headers.csp", 10, 10, "CSP with default-src 'none'"),
  check("headers.content-type-options", 0, 0, "X-Content-Type-Options: nosniff"),
  check("headers.referrer-policy", 5, 5, "Referrer-Policy: no-referrer"),
  check("tls.chain", 20, 20, "complete chain", "tech_ssl_score"),
  check("part.error", 0, 0, "browser crashed", "overall_score"),
  check("part.error", 0, 0, "source timed out", "overall_score"),
];
const AFTER: CheckPoints[] = [
  check("headers.csp", 10, 10, "CSP with default-src 'none'"),
  check("headers.content-type-options", -5, 0, "no X-Content-Type-Options header"),
  check("headers.referrer-policy", 0, 5, "no Referrer-Policy header"),
  check("tls.chain", 20, 20, "complete chain", "tech_ssl_score"),
  check("hsts.preload", 3, 5, "not preloaded", "tech_hsts_score"),
  check("part.error", 0, 0, "browser crashed", "overall_score"),
];

describe("checkChanges", () => {
  test("changed checks only, largest |delta| first, ties in the later scan's order, one-sided ones last", () => {
    const changes = checkChanges(BEFORE, AFTER) as CheckChange[];
    expect(changes.map((c) => [c.id, c.a?.points ?? null, c.b?.points ?? null, c.delta])).toEqual([
      ["headers.content-type-options", 0, -5, -5],
      ["headers.referrer-policy", 5, 0, -5],
      ["hsts.preload", null, 3, null],
      ["part.error", 0, null, null],
    ]);
    expect(changes[0]).toEqual({
      id: "headers.content-type-options",
      score: S,
      label: "Label of headers.content-type-options",
      a: { points: 0, max: 0, detail: "X-Content-Type-Options: nosniff", remediation: null },
      b: {
        points: -5,
        max: 0,
        detail: "no X-Content-Type-Options header",
        remediation: "fix headers.content-type-options",
      },
      delta: -5,
    });
    expect(changes[3]?.a?.detail).toBe("source timed out");
  });

  test("a changed maximum is a change; no change, or a side without checks, is [] or null", () => {
    const [changed] = checkChanges([check("x.y", 5, 10, "d")], [check("x.y", 5, 20, "d")]) ?? [];
    expect(changed?.delta).toBe(0);
    expect(checkChanges(BEFORE, BEFORE)).toEqual([]);
    expect(checkChanges(null, AFTER)).toBeNull();
    expect(checkChanges(BEFORE, null)).toBeNull();
  });
});

describeEachDatabase("explorer evidence, ranks and countries", (get) => {
  let ids: V2Ids;
  const scanId = new Map<string, number>();
  beforeAll(async () => {
    await get().reset();
    ids = await writeV2Fixture(get().db);
    const scan = (source_id: string, completed_at: string, evidence: Record<string, unknown> | null) => ({
      type: "scan" as const,
      source_id,
      domain: "ev.nl.example",
      status: "completed" as const,
      started_at: completed_at,
      completed_at,
      tech_security_headers_score: 80,
      ...(evidence ? { evidence } : {}),
    });
    await writeRecords(get().db, [
      { type: "university", domain: "ev.nl.example", name: "Evidence University", country: "NL" },
      scan("ev-1", "2026-06-01T00:00:00+00:00", { observations: null, checks: BEFORE, unmeasured: {} }),
      scan("ev-2", "2026-06-02T00:00:00+00:00", { observations: null, checks: AFTER, unmeasured: {} }),
      scan("ev-none", "2026-06-03T00:00:00+00:00", null),
      scan("ev-other", "2026-06-04T00:00:00+00:00", { tls: "1.3", checks: [{ id: "x" }] }),
    ]);
    const rows = await get().db.selectFrom("scans").select(["id", "source_id"]).execute();
    for (const r of rows) scanId.set(r.source_id ?? "", Number(r.id));
  });
  const db = () => get().db;
  const sid = (s: string) => scanId.get(s) as number;

  test("scan-diff: the checks whose points changed, when both scans carry checks", async () => {
    const d = await scanDiff(db(), { a: sid("ev-1"), b: sid("ev-2") });
    expectMatches(ScanDiffSchema, d);
    expect(d.checks).toEqual(checkChanges(BEFORE, AFTER));
    expect(d.checks?.length).toBe(4);
    const back = await scanDiff(db(), { a: sid("ev-2"), b: sid("ev-1") });
    expect(back.checks?.find((c) => c.id === "headers.content-type-options")?.delta).toBe(5);
  });

  test("scan-diff: checks is null when a side has no evidence or evidence of another shape", async () => {
    for (const [a, b] of [
      ["ev-1", "ev-none"],
      ["ev-none", "ev-2"],
      ["ev-2", "ev-other"],
    ]) {
      const d = await scanDiff(db(), { a: sid(a as string), b: sid(b as string) });
      expect(d.checks).toBeNull();
      expectMatches(ScanDiffSchema, d);
    }
    const old = await scanDiff(db(), { a: ids.scan("one-old"), b: ids.scan("one-new") });
    expect(old.checks).toBeNull();
  });

  test("universityRanking agrees with /rankings, overall and in the country", async () => {
    const all = await rankings(db(), { limit: 100 });
    expect(all.data.length).toBeGreaterThan(3);
    const universities = await listUniversities(db(), { limit: 100 });
    for (const u of universities.data) {
      const r = await universityRanking(db(), await getUniversity(db(), u.id));
      const row = all.data.find((x) => x.id === u.id);
      if (!row) {
        expect(r).toBeNull();
        continue;
      }
      const local = await rankings(db(), { country: u.country, limit: 100 });
      expect(r).toEqual({
        score: "overall_score",
        profile: "unknown", // imported without a profile: the main one
        rank: row.rank,
        total: all.meta.total,
        country: u.country,
        country_rank: local.data.find((x) => x.id === u.id)?.rank as number,
        country_total: local.meta.total,
      });
    }
    // NL holds two ranked universities: ev (overall 80, derived from its one sub-score) before five (45.1).
    const five = await universityRanking(db(), await getUniversity(db(), ids.university("five.nl.example")));
    expect([five?.country_rank, five?.country_total]).toEqual([2, 2]);
  });

  test("universityRanking: ties share a rank; a value from another generation still finds the university", async () => {
    // two (59.1) and seven (60) differ; give eight seven's score through a new scan: a tie at 60.
    await writeRecords(db(), [
      {
        type: "scan",
        source_id: "eight-tie",
        domain: "eight.be.example",
        status: "completed",
        started_at: "2026-06-29T00:00:00+00:00",
        completed_at: "2026-06-29T00:00:00+00:00",
        overall_score: 60,
      },
    ]);
    const all = await rankings(db(), { limit: 100 });
    const seven = await getUniversity(db(), ids.university("seven.pt.example"));
    const eight = await getUniversity(db(), ids.university("eight.be.example"));
    const r7 = await universityRanking(db(), seven);
    const r8 = await universityRanking(db(), eight);
    expect(r7?.rank).toBe(all.data.find((x) => x.id === seven.id)?.rank as number);
    expect(r8?.rank).toBe(r7?.rank as number);
    const stale = await universityRanking(db(), {
      ...eight,
      latest_scan: { ...eight.latest_scan!, overall_score: 55 },
    });
    expect(stale?.rank).toBe(r8?.rank as number);
  });

  test("countryCounts: universities and ranked ones per country, by code", async () => {
    const counts = await countryCounts(db());
    expectMatches(CountryCountsSchema, counts);
    expect(counts.map((c) => c.country)).toEqual(
      [...new Set([...V2_UNIVERSITIES.map((d) => d.split(".")[1]?.toUpperCase() ?? ""), "NL"])].sort(),
    );
    for (const c of counts) {
      const listed = await listUniversities(db(), { country: c.country, limit: 1 });
      const ranked = await rankings(db(), { country: c.country, limit: 1 });
      expect([c.country, c.universities, c.ranked]).toEqual([
        c.country,
        listed.meta.total,
        ranked.meta.total,
      ]);
    }
    expect(counts.find((c) => c.country === "NL")).toEqual({ country: "NL", universities: 2, ranked: 2 });
    expect(counts.find((c) => c.country === "SE")).toEqual({ country: "SE", universities: 1, ranked: 0 });

    // Ids far apart (kept by a map rather than an array indexed by id): the same counts. Raw SQL is a write from
    // outside; with no generation window it is seen at once.
    setGenerationWindow(0);
    await sql`insert into universities (id, domain, name, country, created_at, search_text)
      values (5000000, 'far.zz.example', 'Far Away University', 'ZZ', '2026-07-01 00:00:00', 'far away university far.zz.example')`.execute(
      db(),
    );
    try {
      const far = await countryCounts(db());
      expect(far.find((c) => c.country === "ZZ")).toEqual({ country: "ZZ", universities: 1, ranked: 0 });
      expect(far.filter((c) => c.country !== "ZZ")).toEqual(counts);
    } finally {
      await sql`delete from universities where id = 5000000`.execute(db());
      setGenerationWindow(1);
    }
  });

  test("over v2: /universities/{id} carries the ranking, /countries the counts, /scan-diff the checks, /compare", async () => {
    const client = appClient(testContext(db()));
    const json = async (path: string) => {
      const r = await client.fetch(path);
      expect(`${path} ${r.status}`).toBe(`${path} 200`);
      return ((await r.json()) as { data: unknown }).data;
    };
    const object = async (path: string) => (await json(path)) as Record<string, unknown>;
    const one = await object(`/api/v2/universities/${ids.university("one.fr.example")}`);
    expectMatches(UniversityDetailSchema, one);
    expect(one.ranking).toEqual(await universityRanking(db(), await getUniversity(db(), Number(one.id))));
    const ten = await object(`/api/v2/universities/${ids.university("ten.se.example")}`);
    expect(ten.ranking).toBeNull();
    expect(await json("/api/v2/countries")).toEqual(await countryCounts(db()));
    const pair = `${ids.university("two.de.example")},${ids.university("one.fr.example")}`;
    expect(await json(`/api/v2/compare?ids=${pair}`)).toEqual(await compare(db(), { ids: pair }));
    const unknown = await client.fetch(`/api/v2/compare?ids=${pair},999999`);
    expect(unknown.status).toBe(404);
    const diff = await object(`/api/v2/scan-diff?a=${sid("ev-1")}&b=${sid("ev-2")}`);
    expect((diff.checks as CheckChange[]).map((c) => c.id)).toEqual([
      "headers.content-type-options",
      "headers.referrer-policy",
      "hsts.preload",
      "part.error",
    ]);
  });
});
