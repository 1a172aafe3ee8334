import { afterAll, beforeAll, expect, test } from "bun:test";
import { sql } from "kysely";
import { readGeneration } from "../../lib/db/generation.ts";
import { leaderboard, rankings, type ScanRecord, writeRecords } from "../../lib/index.ts";
import { fitEvidence, type ScanEvidence } from "../../lib/scanner/evidence.ts";
import type { ScanOutcome } from "../../lib/scanner/index.ts";
import { rescoreScans } from "../../lib/scanner/rescore.ts";
import { RUBRIC_VERSION } from "../../lib/scanner/rubric-version.ts";
import type { DB } from "../../lib/schema/database.ts";
import { SCORE_NAMES } from "../../lib/scores/catalogue.ts";
import { addReceiver } from "../../lib/webhooks/receivers.ts";
import { EVIDENCE_MAX_CHARS } from "../../lib/write/validate-record.ts";
import { runScans } from "../../src/scanner/run-scans.ts";
import { inProcessRunner, type ScanOptions, scanUniversity } from "../../src/scanner/scan-university.ts";
import { sourceParts } from "../../src/scanner/sources/index.ts";
import { describeEachDatabase } from "../support/databases.ts";
import { type ScanWeb, scanSettings, startScanWeb } from "../support/scan-web.ts";
import { TROUBLED, WELL_KEPT } from "../support/scan-web-sites.ts";

/**
 * `unirank rescore` on every database: scans stored under an older rubric version come out as a fresh scan of the
 * same evidence does, the ranking moves with them, and nothing else changes (other scans, universities, webhook
 * deliveries).
 */

const SELF_SIGNED = TROUBLED.find((s) => s.domain === "selfsigned.test")!;
let web: ScanWeb;
let green: ReturnType<typeof Bun.serve>;
let options: ScanOptions;
/** A fresh scan of the self-signed site, under the current rubrics (not stored). */
let freshB: ScanOutcome & { evidence: ScanEvidence };

beforeAll(async () => {
  web = await startScanWeb([WELL_KEPT, SELF_SIGNED]);
  // The Green Web Foundation's greencheck, served on loopback.
  green = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: (req) => {
      const host = new URL(req.url).pathname.split("/").pop() ?? "";
      return Response.json({ url: host, green: true, hosted_by: "Loopback Green", supporting_documents: [] });
    },
  });
  options = {
    ...scanSettings(web),
    parts: sourceParts(["greenweb"], { greenweb: { baseUrl: `http://127.0.0.1:${green.port}` } }),
  };
  freshB = await scanUniversity({ domain: "selfsigned.test" }, options);
  expect(freshB.status).toBe("completed");
}, 60_000);

afterAll(async () => {
  green?.stop(true);
  await web?.close();
});

type Row = Record<string, unknown>;

async function scanRow(db: DB, sourceId: string): Promise<Row> {
  const row = await db
    .selectFrom("scans as s")
    .leftJoin("scan_evidence as e", "e.scan_id", "s.id")
    .selectAll("s")
    .select("e.evidence")
    .where("s.source_id", "=", sourceId)
    .executeTakeFirstOrThrow();
  const out: Row = {};
  for (const [k, v] of Object.entries(row)) out[k] = typeof v === "string" || v === null ? v : Number(v);
  return out;
}

const scoresOf = (row: Row) => Object.fromEntries(SCORE_NAMES.map((n) => [n, row[n] ?? null]));

/** The evidence as an older rubric left it: other points for the own site's checks and the green check. */
function olderEvidence(e: ScanEvidence, keepParts: boolean): ScanEvidence {
  const { parts, ...rest } = e;
  return {
    ...rest,
    ...(keepParts && parts ? { parts } : {}),
    checks: e.checks
      .filter((c) => c.id !== "ssl.browser-trust")
      .map((c) =>
        (keepParts && c.score === "green_hosting_score") || c.id.startsWith("ssl.")
          ? { ...c, points: c.max }
          : c,
      ),
    grades: {},
  };
}

describeEachDatabase("unirank rescore", (get) => {
  let freshA: Row;

  beforeAll(async () => {
    const { db } = get();
    await writeRecords(
      db,
      ["well.test", "selfsigned.test", "imported.test"].map((domain) => ({
        type: "university" as const,
        domain,
        name: domain,
        country: "NL",
      })),
    );
    // A fresh scan of well.test, stored as `unirank scan` stores it: current rubric version.
    const summary = await runScans(db, [{ domain: "well.test" }], { scan: inProcessRunner(options) });
    expect(summary.completed).toBe(1);
    const sourceId = (await db.selectFrom("scans").select("source_id").executeTakeFirstOrThrow()).source_id;
    freshA = await scanRow(db, sourceId as string);
    expect([freshA.profile, freshA.rubric_version]).toEqual(["site,greenweb", RUBRIC_VERSION]);
    const evidenceA = JSON.parse(freshA.evidence as string) as ScanEvidence;
    expect(evidenceA.parts?.greenweb?.green).toBe(true);
    // Older scans of the same evidence, scored otherwise (rubric version 1, stored before profiles).
    const old = (domain: string, sourceId: string, at: string, scores: Row, evidence: ScanEvidence) =>
      ({
        type: "scan",
        source_id: sourceId,
        domain,
        status: "completed",
        started_at: at,
        completed_at: at,
        rubric_version: 1,
        ...scores,
        evidence,
      }) as unknown as ScanRecord;
    await writeRecords(db, [
      old(
        "well.test",
        "old-well",
        "2026-01-01T00:00:00+00:00",
        { ...scoresOf(freshA), green_hosting_score: 40, tech_ssl_score: 90 },
        olderEvidence(evidenceA, true),
      ),
      // The self-signed site's only scan: its certificate earned points before browsers' refusal capped them.
      old(
        "selfsigned.test",
        "old-selfsigned",
        "2026-02-01T00:00:00+00:00",
        { ...freshB.scores, tech_ssl_score: 100, tech_hsts_score: 100, overall_score: 100 },
        olderEvidence(fitEvidence(freshB.evidence, EVIDENCE_MAX_CHARS), false),
      ),
      // Imported scores with evidence but no observations: nothing to re-score.
      {
        type: "scan",
        source_id: "imported-1",
        domain: "imported.test",
        status: "completed",
        completed_at: "2026-02-01T00:00:00+00:00",
        overall_score: 50,
        tech_ssl_score: 50,
        evidence: { note: "measured elsewhere" },
      } as unknown as ScanRecord,
    ]);
    await addReceiver(db, { url: "http://127.0.0.1:9/hook", secret: "s" });
  }, 120_000);

  test("scans under an older rubric come out as a fresh scan of the same evidence; the ranking moves; nothing else changes", async () => {
    const { db } = get();
    const before = {
      freshA: await scanRow(db, freshA.source_id as string),
      imported: await scanRow(db, "imported-1"),
      oldB: await scanRow(db, "old-selfsigned"),
      universities: await db.selectFrom("universities").selectAll().orderBy("id").execute(),
      deliveries: await db.selectFrom("webhook_deliveries").selectAll().execute(),
      generation: await readGeneration(db),
    };
    const all = { profile: "all" };
    const overallBefore = await rankings(db, all);
    expect(overallBefore.data[0]?.domain).toBe("selfsigned.test");
    const sslBefore = await leaderboard(db, "ssl", { limit: 10 });
    expect(sslBefore.data.map((e) => [e.university.domain, e.rank])).toEqual([
      ["well.test", 1],
      ["selfsigned.test", 1],
      ["imported.test", 3],
    ]);

    const summary = await rescoreScans(db, { before: RUBRIC_VERSION });
    expect(summary).toEqual({ examined: 3, rescored: 2, unchanged: 0, skipped: 1 });

    // The older scan of well.test now equals the fresh scan of the same evidence: scores, evidence, profile, version.
    const oldA = await scanRow(db, "old-well");
    expect(scoresOf(oldA)).toEqual(scoresOf(freshA));
    expect(JSON.parse(oldA.evidence as string)).toEqual(JSON.parse(freshA.evidence as string));
    expect([oldA.profile, oldA.rubric_version]).toEqual(["site,greenweb", RUBRIC_VERSION]);
    expect([oldA.started_at, oldA.completed_at]).toEqual([
      "2026-01-01T00:00:00+00:00",
      "2026-01-01T00:00:00+00:00",
    ]);
    // The self-signed site: what a fresh scan gives (TLS at most 20, no HSTS points), its green check kept as stored.
    const oldB = await scanRow(db, "old-selfsigned");
    const expectedB = Object.fromEntries(SCORE_NAMES.map((n) => [n, freshB.scores[n] ?? null]));
    expect(scoresOf(oldB)).toEqual(expectedB);
    expect(Number(oldB.tech_ssl_score)).toBeLessThanOrEqual(20);
    const { parts: _, ...freshEvidenceB } = fitEvidence(freshB.evidence, EVIDENCE_MAX_CHARS);
    expect(JSON.parse(oldB.evidence as string)).toEqual(JSON.parse(JSON.stringify(freshEvidenceB)));
    expect([oldB.profile, oldB.rubric_version, oldB.id]).toEqual([
      freshB.profile,
      RUBRIC_VERSION,
      before.oldB.id,
    ]);

    // Nothing else changed: the current scan, the imported one, the universities, the webhook deliveries.
    expect(await scanRow(db, freshA.source_id as string)).toEqual(before.freshA);
    expect(await scanRow(db, "imported-1")).toEqual(before.imported);
    expect(await db.selectFrom("universities").selectAll().orderBy("id").execute()).toEqual(
      before.universities,
    );
    expect(await db.selectFrom("webhook_deliveries").selectAll().execute()).toEqual(before.deliveries);
    expect(await readGeneration(db)).toBeGreaterThan(before.generation);

    // The ranking follows the new scores.
    const overallAfter = await rankings(db, all);
    expect(overallAfter.data[0]?.domain).toBe("well.test");
    expect(overallAfter.data.find((e) => e.domain === "selfsigned.test")?.overall_score).toBe(
      freshB.scores.overall_score ?? null,
    );
    const sslAfter = await leaderboard(db, "ssl", { limit: 10 });
    expect(sslAfter.data.map((e) => [e.university.domain, e.rank])).toEqual([
      ["well.test", 1],
      ["imported.test", 2],
      ["selfsigned.test", 3],
    ]);
    const latestB = await db
      .selectFrom("latest_scans as l")
      .innerJoin("universities as u", "u.id", "l.university_id")
      .select(["l.tech_ssl_score", "l.profile"])
      .where("u.domain", "=", "selfsigned.test")
      .executeTakeFirstOrThrow();
    expect([Number(latestB.tech_ssl_score), latestB.profile]).toEqual([
      Number(freshB.scores.tech_ssl_score),
      freshB.profile as string,
    ]);
  }, 60_000);

  test("re-scoring again changes nothing: every scan with observations is already what its evidence gives", async () => {
    const { db } = get();
    const generation = await readGeneration(db);
    expect(await rescoreScans(db, { before: RUBRIC_VERSION })).toEqual({
      examined: 1,
      rescored: 0,
      unchanged: 0,
      skipped: 1,
    });
    // The fresh scan too: re-scoring its evidence gives what the scan stored.
    expect(await rescoreScans(db, { all: true })).toEqual({
      examined: 4,
      rescored: 0,
      unchanged: 3,
      skipped: 1,
    });
    expect(await rescoreScans(db, { domains: ["WELL.test"] })).toEqual({
      examined: 2,
      rescored: 0,
      unchanged: 2,
      skipped: 0,
    });
    expect(await readGeneration(db)).toBe(generation);
  });

  test("a selection is one of all, domains or a version; unknown domains are named", async () => {
    const { db } = get();
    await expect(rescoreScans(db, {})).rejects.toMatchObject({ code: "INVALID_PARAMETER" });
    await expect(rescoreScans(db, { all: true, before: 2 })).rejects.toMatchObject({
      code: "INVALID_PARAMETER",
    });
    await expect(rescoreScans(db, { before: 0 })).rejects.toMatchObject({ code: "INVALID_PARAMETER" });
    await expect(rescoreScans(db, { domains: ["well.test", "nope.test"] })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: "not a stored university: nope.test",
    });
    const rows = await sql<{ n: number }>`select count(*) as n from scans`.execute(db);
    expect(Number(rows.rows[0]?.n)).toBe(4);
  });
});
