import { beforeEach, expect, test } from "bun:test";
import {
  EVIDENCE_MAX_CHARS,
  failedOutcome,
  recordScanOutcome,
  recordScanStart,
  type ScanOutcome,
  writeRecords,
} from "../../lib/index.ts";
import { scanEvidence } from "../../lib/queries/scan-evidence.ts";
import { scoreObservations } from "../../lib/scanner/score-observations.ts";
import { describeEachDatabase } from "../support/databases.ts";
import { goodObservations, goodPage } from "../support/scanner-observations.ts";

/** `recordScanOutcome`: the one way a scan's outcome is stored, by `unirank scan` and by serve's scheduler. */

const STARTED = "2026-11-20T10:00:00+00:00";
const DONE = "2026-11-20T10:01:00+00:00";
const attempt = { source_id: "test:1", domain: "uni.test" };

const completed = (over: Partial<ScanOutcome> = {}): ScanOutcome => ({
  status: "completed",
  started_at: STARTED,
  completed_at: DONE,
  scores: { tech_seo_score: 80 },
  ...over,
});

describeEachDatabase("recordScanOutcome", (get) => {
  const stored = () =>
    get()
      .db.selectFrom("scans")
      .select(["id", "status", "tech_uptime_score", "tech_composite_score", "overall_score"])
      .where("source_id", "=", attempt.source_id)
      .executeTakeFirstOrThrow();

  beforeEach(async () => {
    await get().reset();
    await writeRecords(get().db, [{ type: "university", domain: "uni.test", name: "Uni", country: "NL" }]);
    await recordScanStart(get().db, attempt, STARTED);
  });

  test("the start is stored as running; the outcome moves it on, with the derived scores", async () => {
    expect((await stored()).status).toBe("running");
    const outcome = await recordScanOutcome(get().db, attempt, completed());
    expect(outcome.status).toBe("completed");
    expect(await stored()).toMatchObject({
      status: "completed",
      tech_composite_score: 80,
      overall_score: 80,
    });
  });

  test("evidence over the writer's cap is cut to fit and stored with the completed scan", async () => {
    const links = Array.from({ length: 400 }, (_, i) => `https://uni.test/files/document-number-${i}.pdf`);
    const pages = Array.from({ length: 5 }, (_, i) => goodPage({ url: `https://uni.test/${i}`, links }));
    const observations = goodObservations({ pages });
    const evidence = { observations, checks: scoreObservations(observations).checks, unmeasured: {} };
    expect(JSON.stringify(evidence).length).toBeGreaterThan(EVIDENCE_MAX_CHARS);
    const outcome = await recordScanOutcome(get().db, attempt, completed({ evidence }));
    expect(outcome.status).toBe("completed");
    const row = await stored();
    expect(row.status).toBe("completed");
    const kept = (await scanEvidence(get().db, Number(row.id))) as typeof evidence;
    expect(JSON.stringify(kept).length).toBeLessThanOrEqual(EVIDENCE_MAX_CHARS);
    expect(kept.observations.pages.every((p) => p.links.length === 50)).toBe(true);
    expect(kept.checks).toEqual(evidence.checks);
  });

  test("uptime from the availability of the period, clamped: more answers than probes count as all", async () => {
    await recordScanOutcome(get().db, attempt, completed(), { availability: { answered: 14, total: 12 } });
    expect((await stored()).tech_uptime_score).toBe(100);
  });

  test("uptime from the availability, rounded; a scan's own uptime score is kept", async () => {
    await recordScanOutcome(get().db, attempt, completed(), { availability: { answered: 8, total: 12 } });
    expect((await stored()).tech_uptime_score).toBe(67);
    const second = { source_id: "test:2", domain: "uni.test" };
    await recordScanOutcome(get().db, second, completed({ scores: { tech_uptime_score: 40 } }), {
      availability: { answered: 8, total: 12 },
    });
    const row = await get()
      .db.selectFrom("scans")
      .select("tech_uptime_score")
      .where("source_id", "=", "test:2")
      .executeTakeFirstOrThrow();
    expect(row.tech_uptime_score).toBe(40);
  });

  test("without probes the uptime score stays null", async () => {
    await recordScanOutcome(get().db, attempt, completed(), { availability: { answered: 0, total: 0 } });
    expect((await stored()).tech_uptime_score).toBeNull();
  });

  test("an outcome the writer refuses is closed as failed, saying why, with the reason in the evidence", async () => {
    const outcome = await recordScanOutcome(
      get().db,
      attempt,
      completed({ scores: { tech_speed_mobile_score: 150 } }),
    );
    expect(outcome.status).toBe("failed");
    expect(outcome.failure_reason).toStartWith("the scan could not be stored: ");
    const row = await stored();
    expect(row).toMatchObject({ status: "failed", overall_score: null });
    expect(String((await scanEvidence(get().db, Number(row.id)))?.failure_reason)).toBe(
      outcome.failure_reason as string,
    );
  });

  test("a failed outcome is stored with its reason", async () => {
    const outcome = await recordScanOutcome(get().db, attempt, failedOutcome("no answer", STARTED, DONE));
    expect(outcome.failure_reason).toBe("no answer");
    const row = await stored();
    expect(row.status).toBe("failed");
    expect((await scanEvidence(get().db, Number(row.id)))?.failure_reason).toBe("no answer");
  });
});
