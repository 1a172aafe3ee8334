import { beforeAll, expect, test } from "bun:test";
import { readGeneration } from "../../lib/db/generation.ts";
import {
  CATEGORIES,
  compare,
  exportUniversity,
  type HostChecks,
  health,
  SCORE_NAMES,
  type Scores,
  SUB_SCORE_NAMES,
  stats,
  UnirankError,
  universityScores,
  writeRecords,
} from "../../lib/index.ts";
import { recommend } from "../../lib/queries/export-university.ts";
import { describeEachDatabase } from "../support/databases.ts";
import {
  ALPHA_LATEST_SUBSCORES,
  FIXTURE_COMPLETED_SCANS,
  FIXTURE_UNIVERSITIES,
  writeFixture,
} from "../support/fixtures.ts";

const codeOf = (p: Promise<unknown>) => p.then(() => "resolved").catch((e: UnirankError) => e.code);
const fixedClock = () => new Date("2026-03-01T12:00:00.250Z");

describeEachDatabase("core: scores, compare, stats, export", (get) => {
  let ids = new Map<string, number>();
  const id = (domain: string) => ids.get(domain)!;
  beforeAll(async () => {
    ids = await writeFixture(get().db);
  });

  test("universityScores: every score of the latest completed scan, nulls kept", async () => {
    const s = await universityScores(get().db, id("alpha.de.example"));
    expect(Object.keys(s)).toEqual(["scan_id", "completed_at", ...SCORE_NAMES]);
    expect(SCORE_NAMES.length).toBeGreaterThanOrEqual(35);
    expect(s.completed_at).toBe("2026-01-10T12:00:00+00:00");
    expect(s.overall_score).toBe(90);
    expect(s.webo_composite_score).toBe(95);
    expect(s.tech_ssl_score).toBe(45);
    expect(s.research_orcid_score).toBeNull();
    expect(s.webo_excellence_score).toBeNull();
    // The later pending and failed scans never count, even the failed one that came with a score.
    const k = await universityScores(get().db, id("kappa.gb.example"));
    expect(k.overall_score).toBe(40);
  });

  test("universityScores: NOT_FOUND for unknown, never-scanned and only-pending universities", async () => {
    expect(await codeOf(universityScores(get().db, 999_999))).toBe("NOT_FOUND");
    expect(await codeOf(universityScores(get().db, id("eta.de.example")))).toBe("NOT_FOUND");
    expect(await codeOf(universityScores(get().db, id("theta.us.example")))).toBe("NOT_FOUND");
  });

  test("compare: the order given, scan_date as a date, unscanned universities with nulls", async () => {
    const order = ["lambda.us.example", "eta.de.example", "alpha.de.example", "theta.us.example"];
    const out = await compare(get().db, { ids: order.map(id).join(",") });
    expect(out.map((e) => e.university.domain)).toEqual(order);
    expect(out[0]).toMatchObject({
      university: { id: id("lambda.us.example"), domain: "lambda.us.example", name: "Lambda University" },
      scan_date: "2026-03-03",
    });
    expect(out[0]?.scores?.overall_score).toBe(80);
    expect(Object.keys(out[0]?.scores ?? {})).toEqual([...SCORE_NAMES]);
    expect(out[1]).toEqual({
      university: { id: id("eta.de.example"), domain: "eta.de.example", name: "Eta College" },
      scan_date: null,
      scores: null,
    });
    expect(out[2]?.scan_date).toBe("2026-01-10");
    expect(out[3]?.scores).toBeNull();
  });

  test("compare: unknown ids are NOT_FOUND naming every missing id", async () => {
    const error = await compare(get().db, { ids: `${id("alpha.de.example")},999998,999999` }).catch((e) => e);
    expect(error).toBeInstanceOf(UnirankError);
    expect(error.code).toBe("NOT_FOUND");
    expect(error.message).toContain("999998, 999999");
    expect(error.message).not.toContain(String(id("alpha.de.example")));
    expect(await codeOf(compare(get().db, { ids: "1,1" }))).toBe("INVALID_PARAMETER");
  });

  test("stats: completed scans only, mean of latest overall scores to one decimal, extras", async () => {
    expect(await stats(get().db)).toEqual({
      total_universities: FIXTURE_UNIVERSITIES.length,
      total_scans: FIXTURE_COMPLETED_SCANS.length,
      // (90 + 80 + 80 + 80 + 70 + 65 + 60 + 60 + 40) / 9 = 69.44…
      average_score: 69.4,
      scanned_universities: 9,
      countries: 5,
      last_scan_at: "2026-03-03T03:03:03+00:00",
    });
  });

  test("export: university, latest scores, recommendations by priority then score, history newest first", async () => {
    const alpha = id("alpha.de.example");
    const out = await exportUniversity(get().db, alpha, { clock: fixedClock });
    expect(out.exported_at).toBe("2026-03-01T12:00:00+00:00");
    expect(out.university).toEqual({
      id: alpha,
      domain: "alpha.de.example",
      name: "Universität Alpha",
      country: "DE",
      created_at: "2024-01-01 00:00:00",
    });
    expect(out.latest_scores).toMatchObject({ overall_score: 90, completed_at: "2026-01-10T12:00:00+00:00" });
    expect(out.recommendations.map((r) => [r.category, r.score, r.priority])).toEqual([
      ["email_spf_score", 45, "high"],
      ["tech_ssl_score", 45, "high"],
      ["tech_hsts_score", 60, "medium"],
      ["green_hosting_score", 69.9, "medium"],
    ]);
    for (const r of out.recommendations) {
      expect(r.message).toMatch(/^[^.]+ is at [0-9.]+: [A-Z].*\.$/);
      expect(r.message.split(". ")).toHaveLength(1);
    }
    expect(out.scan_history.map((h) => [h.completed_at, h.overall_score])).toEqual([
      ["2026-01-10T12:00:00+00:00", 90],
      ["2025-01-10T12:00:00+00:00", 50],
    ]);
    expect(out.scan_history[0]?.scan_id).toBe(out.latest_scores.scan_id);
  });

  test("export: same-time scans by id descending; at most ten recommendations; three lowest when all strong", async () => {
    const kappa = await exportUniversity(get().db, id("kappa.gb.example"));
    expect(kappa.scan_history.map((h) => h.overall_score)).toEqual([40, 41]);
    expect(kappa.scan_history[0]!.scan_id).toBeGreaterThan(kappa.scan_history[1]!.scan_id);
    expect(kappa.recommendations).toHaveLength(10);
    expect(kappa.recommendations.map((r) => r.score)).toEqual([30, 31, 32, 33, 34, 35, 36, 37, 38, 39]);
    const lambda = await exportUniversity(get().db, id("lambda.us.example"));
    expect(lambda.recommendations.map((r) => [r.category, r.priority])).toEqual([
      ["email_dmarc_score", "low"],
      ["tech_seo_score", "low"],
      ["webo_size_score", "low"],
    ]);
    // No measured sub-score at all: nothing to recommend.
    const delta = await exportUniversity(get().db, id("delta.us.example"));
    expect(delta.recommendations).toEqual([]);
    expect(delta.scan_history).toHaveLength(2);
  });

  test("export: NOT_FOUND for unknown and never-scanned universities", async () => {
    expect(await codeOf(exportUniversity(get().db, 999_999))).toBe("NOT_FOUND");
    expect(await codeOf(exportUniversity(get().db, id("eta.de.example")))).toBe("NOT_FOUND");
    expect(await codeOf(exportUniversity(get().db, id("theta.us.example")))).toBe("NOT_FOUND");
  });

  test("every write transaction bumps the data generation", async () => {
    const before = await readGeneration(get().db);
    expect(before).toBeGreaterThan(0);
    await writeRecords(get().db, [
      { type: "university", domain: "mu.fr.example", name: "Université Mu", country: "FR" },
    ]);
    expect(await readGeneration(get().db)).toBe(before + 1);
  });
});

test("recommend: ignores composites and unmeasured scores, orders ties by name", () => {
  const scores = Object.fromEntries(SCORE_NAMES.map((n) => [n, null])) as Scores;
  Object.assign(scores, ALPHA_LATEST_SUBSCORES, { overall_score: 1, tech_composite_score: 2 });
  const r = recommend(scores);
  expect(r.map((x) => x.category)).toEqual([
    "email_spf_score",
    "tech_ssl_score",
    "tech_hsts_score",
    "green_hosting_score",
  ]);
  expect(r.every((x) => (SUB_SCORE_NAMES as readonly string[]).includes(x.category))).toBe(true);
  expect(recommend(Object.fromEntries(SCORE_NAMES.map((n) => [n, null])) as Scores)).toEqual([]);
});

describeEachDatabase("core: health", (get) => {
  const hostChecks = (over: Partial<HostChecks> = {}): HostChecks => ({
    freeDiskBytes: async () => 50 * 1024 ** 3,
    logsWritable: async () => true,
    cacheEntries: () => 7,
    ...over,
  });

  test("healthy when every check is ok", async () => {
    const h = await health(get().db, { version: "9.9.9", hostChecks: hostChecks(), clock: fixedClock });
    expect(h).toMatchObject({
      status: "healthy",
      version: "9.9.9",
      timestamp: "2026-03-01T12:00:00+00:00",
      checks: {
        database: { status: "ok" },
        disk: { status: "ok", free_gb: 50 },
        logs: { status: "ok", writable: true },
        cache: { status: "ok", entries: 7 },
      },
    });
  });

  test("degraded when disk is low, the log directory unwritable or a probe fails", async () => {
    const low = await health(get().db, {
      version: "1",
      hostChecks: hostChecks({ freeDiskBytes: async () => 0.5 * 1024 ** 3 }),
      minFreeDiskGb: 1,
    });
    expect(low.status).toBe("degraded");
    expect(low.checks.disk).toEqual({ status: "warn", free_gb: 0.5 });
    const logs = await health(get().db, {
      version: "1",
      hostChecks: hostChecks({ logsWritable: async () => false }),
    });
    expect(logs.status).toBe("degraded");
    expect(logs.checks.logs).toEqual({ status: "warn", writable: false });
    const broken = await health(get().db, {
      version: "1",
      hostChecks: hostChecks({
        freeDiskBytes: async () => {
          throw new Error("statfs failed");
        },
      }),
    });
    expect(broken.status).toBe("degraded");
    expect(broken.checks.disk.free_gb).toBeNull();
  });
});

test("the score catalogue in docs/scores.md names every score and every category", async () => {
  const readme = await Bun.file(new URL("../../docs/scores.md", import.meta.url)).text();
  const section = readme.slice(readme.indexOf("<!-- section:scores -->"));
  for (const name of SCORE_NAMES) expect(section).toContain(`| \`${name}\` |`);
  for (const [category, score] of Object.entries(CATEGORIES)) {
    expect(section).toContain(`| \`${category}\` | \`${score}\` |`);
  }
});
