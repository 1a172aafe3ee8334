import { beforeAll, describe, expect, test } from "bun:test";
import {
  CATEGORIES,
  CATEGORY_NAMES,
  type Category,
  getScan,
  LeaderboardSchema,
  leaderboard,
  RegressionListSchema,
  type RegressionsParams,
  regressions,
  SCORE_NAMES,
  ScanDetailSchema,
  ScanDiffSchema,
  type ScoreChange,
  scanDiff,
  UnirankError,
} from "../../lib/index.ts";
import { profileCensus } from "../../lib/queries/profiles.ts";
import { PROFILE_BOUND_SCORES } from "../../lib/scores/profile.ts";
import { describeEachDatabase } from "../support/databases.ts";
import { expectMatches } from "../support/json-schema.ts";
import { ONE_NEW, ONE_OLD, V2_NOW, type V2Ids, v2Records, writeV2Fixture } from "../support/v2-fixture.ts";

async function rejection(p: Promise<unknown>): Promise<UnirankError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof UnirankError) return e;
    throw e;
  }
  throw new Error("expected a UnirankError");
}

const clockAt = (iso: string) => () => new Date(iso);

describeEachDatabase("v2 core", (get) => {
  let ids: V2Ids;
  beforeAll(async () => {
    await get().reset();
    ids = await writeV2Fixture(get().db);
  });
  const db = () => get().db;

  describe("getScan", () => {
    test("a completed scan: university and every score, in catalogue order", async () => {
      const s = await getScan(db(), ids.scan("one-new"));
      expectMatches(ScanDetailSchema, s);
      expect(s.id).toBe(ids.scan("one-new"));
      expect(s.university).toEqual({
        id: ids.university("one.fr.example"),
        domain: "one.fr.example",
        name: "Université Un",
        country: "FR",
      });
      expect(s.status).toBe("completed");
      expect(s.started_at).toBe("2026-06-20T00:00:00+00:00");
      expect(s.completed_at).toBe("2026-06-20T00:00:00+00:00");
      // Imported without a profile or a rubric version.
      expect([s.profile, s.rubric_version]).toEqual(["unknown", null]);
      expect(Object.keys(s.scores ?? {})).toEqual([...SCORE_NAMES]);
      for (const name of SCORE_NAMES) expect(s.scores?.[name]).toBe(ONE_NEW[name] ?? null);
    });

    test("pending, running and failed scans are shown with their status and scores null", async () => {
      for (const [source, status] of [
        ["one-pending", "pending"],
        ["one-failed", "failed"],
        ["ten-pending", "running"],
      ] as const) {
        const s = await getScan(db(), ids.scan(source));
        expectMatches(ScanDetailSchema, s);
        expect(s.status).toBe(status);
        expect(s.completed_at).toBeNull();
        expect(s.scores).toBeNull();
      }
    });

    test("an unknown id is 404", async () => {
      const e = await rejection(getScan(db(), 999_999));
      expect(e.code).toBe("NOT_FOUND");
      expect(e.message).toContain("999999");
    });
  });

  describe("scanDiff", () => {
    test("changes: every score measured on one side at least, delta = b - a, sorted by |delta|", async () => {
      const d = await scanDiff(db(), { a: ids.scan("one-old"), b: ids.scan("one-new") });
      expectMatches(ScanDiffSchema, d);
      expect(d.a).toEqual({
        id: ids.scan("one-old"),
        university: {
          id: ids.university("one.fr.example"),
          domain: "one.fr.example",
          name: "Université Un",
          country: "FR",
        },
        completed_at: "2026-01-10T00:00:00+00:00",
        profile: "unknown",
        rubric_version: null,
      });
      expect(d.b.id).toBe(ids.scan("one-new"));
      expect(d.changes).toEqual([
        { score: "tech_ssl_score", a: 80, b: 100, delta: 20 },
        { score: "overall_score", a: 70, b: 62, delta: -8 },
        // |5| = |-5|: catalogue order (composites come before sub-scores)
        { score: "webo_composite_score", a: 60, b: 65, delta: 5 },
        { score: "tech_hsts_score", a: 40, b: 35, delta: -5 },
        // 33.4 - 33.3 and 49.9 - 50 are 0.1 in magnitude once rounded; catalogue order
        { score: "webo_size_score", a: 33.3, b: 33.4, delta: 0.1 },
        { score: "tech_seo_score", a: 50, b: 49.9, delta: -0.1 },
        { score: "tech_composite_score", a: 75.5, b: 75.5, delta: 0 },
        { score: "email_spf_score", a: 60, b: 60, delta: 0 },
        // measured on one side only: delta null, last, in catalogue order
        { score: "research_orcid_score", a: null, b: 55, delta: null },
        { score: "presence_news_score", a: 20, b: null, delta: null },
      ]);
      expect(d.summary).toEqual({ improved: 3, declined: 3, unchanged: 2, not_comparable: 2 });
    });

    test("summary counts agree with changes; swapping a and b negates every delta", async () => {
      const ab = await scanDiff(db(), { a: ids.scan("one-old"), b: ids.scan("one-new") });
      const ba = await scanDiff(db(), { a: ids.scan("one-new"), b: ids.scan("one-old") });
      const count = (cs: ScoreChange[], f: (c: ScoreChange) => boolean) => cs.filter(f).length;
      for (const d of [ab, ba]) {
        expect(d.summary.improved).toBe(count(d.changes, (c) => c.delta !== null && c.delta > 0));
        expect(d.summary.declined).toBe(count(d.changes, (c) => c.delta !== null && c.delta < 0));
        expect(d.summary.unchanged).toBe(count(d.changes, (c) => c.delta === 0));
        expect(d.summary.not_comparable).toBe(count(d.changes, (c) => c.delta === null));
        const total =
          d.summary.improved + d.summary.declined + d.summary.unchanged + d.summary.not_comparable;
        expect(total).toBe(d.changes.length);
        // sorted by |delta| descending, nulls last
        const weights = d.changes.map((c) => (c.delta === null ? -1 : Math.abs(c.delta)));
        expect(weights).toEqual([...weights].sort((x, y) => y - x));
        for (const c of d.changes) {
          if (c.a !== null && c.b !== null) expect(c.delta).toBe(Math.round((c.b - c.a) * 10) / 10 + 0);
        }
      }
      const byScore = new Map(ba.changes.map((c) => [c.score, c]));
      for (const c of ab.changes) {
        const other = byScore.get(c.score)!;
        expect(other.a).toBe(c.b);
        expect(other.b).toBe(c.a);
        expect(other.delta).toBe(c.delta === null ? null : -c.delta + 0);
      }
      expect(ba.summary).toEqual({
        ...ab.summary,
        improved: ab.summary.declined,
        declined: ab.summary.improved,
      });
    });

    test("a = b: every measured score unchanged", async () => {
      const id = ids.scan("one-new");
      const d = await scanDiff(db(), { a: id, b: id });
      const measured = SCORE_NAMES.filter((n) => ONE_NEW[n] != null);
      expect(d.changes.map((c) => c.score)).toEqual(measured);
      expect(d.changes.every((c) => c.delta === 0 && c.a === c.b)).toBe(true);
      expect(d.summary).toEqual({ improved: 0, declined: 0, unchanged: measured.length, not_comparable: 0 });
      expect(d.a).toEqual(d.b);
    });

    test("scans of two universities", async () => {
      const d = await scanDiff(db(), { a: ids.scan("one-new"), b: ids.scan("two-new") });
      expect(d.a.university.domain).toBe("one.fr.example");
      expect(d.b.university.domain).toBe("two.de.example");
      expect(d.changes.find((c) => c.score === "overall_score")).toEqual({
        score: "overall_score",
        a: 62,
        b: 59.1,
        delta: -2.9,
      });
      expect(d.changes.find((c) => c.score === "tech_ssl_score")).toEqual({
        score: "tech_ssl_score",
        a: 100,
        b: 90,
        delta: -10,
      });
      expect(d.changes[0]?.score).toBe("tech_ssl_score");
    });

    test("unknown scans: 404 naming each missing one", async () => {
      const known = ids.scan("one-new");
      let e = await rejection(scanDiff(db(), { a: 999_991, b: known }));
      expect(e.code).toBe("NOT_FOUND");
      expect(e.message).toContain("999991");
      expect(e.details?.map((d) => d.param)).toEqual(["a"]);
      e = await rejection(scanDiff(db(), { a: known, b: 999_992 }));
      expect(e.details?.map((d) => d.param)).toEqual(["b"]);
      expect(e.message).toContain("999992");
      e = await rejection(scanDiff(db(), { a: 999_991, b: 999_992 }));
      expect(e.details?.map((d) => d.param)).toEqual(["a", "b"]);
      expect(e.message).toContain("999991");
      expect(e.message).toContain("999992");
      e = await rejection(scanDiff(db(), { a: 999_993, b: 999_993 }));
      expect(e.details?.map((d) => d.param)).toEqual(["a", "b"]);
    });

    test("uncompleted scans: 404 saying which is not completed", async () => {
      const known = ids.scan("one-new");
      let e = await rejection(scanDiff(db(), { a: known, b: ids.scan("one-pending") }));
      expect(e.code).toBe("NOT_FOUND");
      expect(e.details).toEqual([
        { param: "b", message: `Scan ${ids.scan("one-pending")} is pending, not completed` },
      ]);
      expect(e.message).toContain("not completed");
      e = await rejection(scanDiff(db(), { a: ids.scan("one-failed"), b: ids.scan("ten-pending") }));
      expect(e.details?.map((d) => d.param)).toEqual(["a", "b"]);
      expect(e.message).toContain("failed");
      expect(e.message).toContain("running");
      // unknown wins over uncompleted
      e = await rejection(scanDiff(db(), { a: ids.scan("one-failed"), b: 999_994 }));
      expect(e.details?.map((d) => d.param)).toEqual(["b"]);
      expect(e.message).toContain("does not exist");
    });
  });

  describe("leaderboard", () => {
    /** Expected entries from the fixture itself: latest completed scan per university, competition rank. */
    function expected(category: Category) {
      const score = CATEGORIES[category];
      const latest = new Map<string, { completed_at: string; source_id: string; value: number | null }>();
      for (const r of v2Records()) {
        if (r.type !== "scan" || r.status !== "completed" || !r.completed_at) continue;
        const prev = latest.get(r.domain);
        if (!prev || r.completed_at > prev.completed_at) {
          latest.set(r.domain, {
            completed_at: r.completed_at,
            source_id: r.source_id,
            value: r[score] ?? null,
          });
        }
      }
      const rows = [...latest.entries()]
        .filter(([, l]) => l.value !== null)
        .map(([domain, l]) => ({ id: ids.university(domain), domain, ...l, value: l.value as number }))
        .sort((x, y) => y.value - x.value || x.id - y.id);
      return rows.map((r, i) => ({
        rank: rows.findIndex((o) => o.value === r.value) + 1,
        id: r.id,
        score: r.value,
        scan_id: ids.scan(r.source_id),
        scan_date: r.completed_at.slice(0, 10),
        i,
      }));
    }

    for (const category of CATEGORY_NAMES) {
      test(`${category} ranks by ${CATEGORIES[category]}`, async () => {
        const board = await leaderboard(db(), category, { limit: 100 });
        expectMatches(LeaderboardSchema, board.data);
        expect(board.meta).toEqual({
          category,
          score: CATEGORIES[category],
          limit: 100,
          total: expected(category).length,
          profile: PROFILE_BOUND_SCORES.has(CATEGORIES[category]) ? "unknown" : null,
          profiles: await profileCensus(db()),
        });
        expect(
          board.data.map((e) => ({
            rank: e.rank,
            id: e.university.id,
            score: e.score,
            scan_id: e.scan_id,
            scan_date: e.scan_date,
          })),
        ).toEqual(expected(category).map(({ i: _, ...e }) => e));
        expect(board.data.length).toBeGreaterThan(0);
      });
    }

    test("limit (default 10) cuts the list; ties share a rank (1, 2, 2, 4)", async () => {
      const all = await leaderboard(db(), "overall", { limit: 100 });
      const top = await leaderboard(db(), "overall", { limit: 2 });
      expect(top.data).toEqual(all.data.slice(0, 2));
      expect(top.meta.total).toBe(all.meta.total);
      expect((await leaderboard(db(), "overall")).meta.limit).toBe(10);
      // ssl: nine (80 - 17 = 63) and six (65) and two (90) and one (100)
      const ssl = await leaderboard(db(), "ssl", { limit: 100 });
      expect(ssl.data.map((e) => [e.rank, e.university.domain, e.score])).toEqual([
        [1, "one.fr.example", 100],
        [2, "two.de.example", 90],
        [3, "six.pl.example", 65],
        [4, "nine.at.example", 63],
      ]);
    });
  });

  describe("regressions", () => {
    const run = (params: RegressionsParams = {}, at = "2026-06-30T12:00:00Z") =>
      regressions(db(), params, { clock: clockAt(at) });
    const domains = (r: Awaited<ReturnType<typeof run>>) => r.data.map((e) => e.university.domain);

    test("defaults: 30 days, min_drop 5, overall, sorted by drop then id", async () => {
      const r = await run();
      expectMatches(RegressionListSchema, r.data);
      expect(r.meta).toEqual({
        category: "overall",
        score: "overall_score",
        days: 30,
        min_drop: 5,
        limit: 20,
        since: "2026-05-31T12:00:00+00:00",
        total: 3,
      });
      expect(r.data).toEqual([
        {
          university: {
            id: ids.university("nine.at.example"),
            domain: "nine.at.example",
            name: "Universität Neun",
            country: "AT",
          },
          category: "overall",
          previous: { scan_id: ids.scan("nine-old"), completed_at: "2026-04-01T00:00:00+00:00", score: 80 },
          current: { scan_id: ids.scan("nine-new"), completed_at: "2026-06-27T00:00:00+00:00", score: 70 },
          drop: 10,
        },
        {
          university: {
            id: ids.university("one.fr.example"),
            domain: "one.fr.example",
            name: "Université Un",
            country: "FR",
          },
          category: "overall",
          previous: { scan_id: ids.scan("one-old"), completed_at: "2026-01-10T00:00:00+00:00", score: 70 },
          current: { scan_id: ids.scan("one-new"), completed_at: "2026-06-20T00:00:00+00:00", score: 62 },
          drop: 8,
        },
        {
          university: {
            id: ids.university("two.de.example"),
            domain: "two.de.example",
            name: "Universität Zwei",
            country: "DE",
          },
          category: "overall",
          previous: { scan_id: ids.scan("two-old"), completed_at: "2026-01-01T00:00:00+00:00", score: 64.1 },
          current: { scan_id: ids.scan("two-new"), completed_at: "2026-05-31T12:00:00+00:00", score: 59.1 },
          drop: 5,
        },
      ]);
    });

    test("window edges: a scan completed exactly `days` ago is in, one second earlier is out", async () => {
      expect(domains(await run({ days: 30 }))).toContain("two.de.example");
      expect(domains(await run({ days: 30 }))).not.toContain("three.it.example");
      // one second later, two's scan falls out of the window too
      expect(domains(await run({ days: 30 }, "2026-06-30T12:00:01Z"))).not.toContain("two.de.example");
      // 31 days reach three (drop 20, now first)
      const wider = await run({ days: 31 });
      expect(domains(wider)[0]).toBe("three.it.example");
      expect(wider.data[0]?.drop).toBe(20);
      // days=1: only scans completed since 2026-06-29T12:00 (none of the overall drops)
      expect(domains(await run({ days: 1 }))).toEqual([]);
      expect((await run({ days: 365 })).meta.since).toBe("2025-06-30T12:00:00+00:00");
    });

    test("total counts what the list holds, whatever the order of thresholds, windows and limits asked", async () => {
      const asks: [number, number, string][] = [];
      for (const min_drop of [5, 0, 10, 4.9, 5])
        for (const days of [30, 1, 365, 31])
          for (const at of ["2026-06-30T12:00:00Z", "2026-06-30T12:00:01Z"]) asks.push([min_drop, days, at]);
      for (const [min_drop, days, at] of asks) {
        const all = await run({ min_drop, days, limit: 100 }, at);
        expect(all.meta.total).toBe(all.data.length);
        const one = await run({ min_drop, days, limit: 1 }, at);
        expect(one.meta.total).toBe(all.data.length);
        expect(one.data).toEqual(all.data.slice(0, 1));
      }
    });

    test("min_drop boundary: a drop exactly equal to min_drop is included", async () => {
      expect(domains(await run({ min_drop: 5 }))).toContain("two.de.example"); // 64.1 - 59.1
      expect(domains(await run({ min_drop: 5.1 }))).not.toContain("two.de.example");
      expect(domains(await run({ min_drop: 4.9 }))).toContain("five.nl.example"); // 50 - 45.1
      expect(domains(await run({ min_drop: 5 }))).not.toContain("five.nl.example");
      expect(domains(await run({ min_drop: 8 }))).toEqual(["nine.at.example", "one.fr.example"]);
      expect(domains(await run({ min_drop: 8.05 }))).toEqual(["nine.at.example"]);
      expect(domains(await run({ min_drop: 100 }))).toEqual([]);
    });

    test("min_drop 0 lists every decline, never an unchanged or improved score", async () => {
      const r = await run({ min_drop: 0 });
      expect(domains(r)).toEqual(["nine.at.example", "one.fr.example", "two.de.example", "five.nl.example"]);
      expect(domains(r)).not.toContain("seven.pt.example");
      expect(domains(r)).not.toContain("eight.be.example");
      expect(r.data.every((e) => e.drop > 0)).toBe(true);
    });

    test("a university with one completed scan, or a score missing on a side, is never listed", async () => {
      for (const category of CATEGORY_NAMES) {
        const r = await run({ category, min_drop: 0, days: 365 });
        expect(domains(r)).not.toContain("four.es.example");
        expect(domains(r)).not.toContain("ten.se.example");
        if (category === "overall") expect(domains(r)).not.toContain("six.pl.example");
      }
      // six's ssl is measured on both sides: listed under ssl
      const ssl = await run({ category: "ssl" });
      expect(ssl.data.find((e) => e.university.domain === "six.pl.example")?.drop).toBe(30);
    });

    for (const [i, category] of CATEGORY_NAMES.entries()) {
      test(`category ${category} measures ${CATEGORIES[category]}`, async () => {
        const r = await run({ category, min_drop: 0 });
        expect(r.meta.score).toBe(CATEGORIES[category]);
        const nine = r.data.find((e) => e.university.domain === "nine.at.example");
        expect(nine).toEqual({
          university: {
            id: ids.university("nine.at.example"),
            domain: "nine.at.example",
            name: "Universität Neun",
            country: "AT",
          },
          category,
          previous: { scan_id: ids.scan("nine-old"), completed_at: "2026-04-01T00:00:00+00:00", score: 80 },
          current: {
            scan_id: ids.scan("nine-new"),
            completed_at: "2026-06-27T00:00:00+00:00",
            score: 70 - i,
          },
          drop: 10 + i,
        });
        // the drop is the category's own score, as getScan shows it
        const cur = await getScan(db(), ids.scan("nine-new"));
        expect(cur.scores?.[CATEGORIES[category]]).toBe(70 - i);
      });
    }

    test("sorted by drop descending, ties by university id; limit cuts, total counts all", async () => {
      const r = await run({ category: "ssl", min_drop: 0 });
      // ssl: six drops 30, nine 80 -> 63 = 17
      expect(r.data.map((e) => [e.university.domain, e.drop])).toEqual([
        ["six.pl.example", 30],
        ["nine.at.example", 17],
      ]);
      const limited = await run({ min_drop: 0, limit: 1 });
      expect(limited.data.length).toBe(1);
      expect(limited.meta.total).toBe(4);
      const drops = (await run({ min_drop: 0, days: 365 })).data.map((e) => e.drop);
      expect(drops).toEqual([...drops].sort((x, y) => y - x));
    });

    test("ties on drop are broken by university id", async () => {
      // one (drop 8) and a twin university with the same drop
      const { writeRecords } = await import("../../lib/index.ts");
      await writeRecords(db(), [
        {
          type: "university",
          domain: "twin.fr.example",
          name: "Twin",
          country: "FR",
          created_at: "2025-01-01 00:00:00",
        },
        {
          type: "scan",
          source_id: "twin-old",
          domain: "twin.fr.example",
          status: "completed",
          completed_at: "2026-02-01T00:00:00+00:00",
          overall_score: 90,
        },
        {
          type: "scan",
          source_id: "twin-new",
          domain: "twin.fr.example",
          status: "completed",
          completed_at: "2026-06-21T00:00:00+00:00",
          overall_score: 82,
        },
      ]);
      const r = await run({ min_drop: 8, days: 30 });
      expect(domains(r)).toEqual(["nine.at.example", "one.fr.example", "twin.fr.example"]);
      expect(r.data[1]?.drop).toBe(r.data[2]?.drop);
      expect(r.data[1]!.university.id).toBeLessThan(r.data[2]!.university.id);
      expect(V2_NOW.toISOString()).toBe("2026-06-30T12:00:00.000Z");
    });
  });
});

test("fixture sanity: one's two scans differ as documented", () => {
  expect(ONE_OLD.overall_score).toBe(70);
  expect(ONE_NEW.overall_score).toBe(62);
});
