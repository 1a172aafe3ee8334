import { afterAll, beforeAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { migrate } from "../../lib/migrations/migrate.ts";
import { scanEvidence } from "../../lib/queries/scan-evidence.ts";
import type { ScanOutcome } from "../../lib/scanner/scan-outcome.ts";
import { writeRecords } from "../../lib/write/write-records.ts";
import { type OpenedDatabase, openDatabase } from "../../src/db/open.ts";
import { runScans } from "../../src/scanner/run-scans.ts";
import { inProcessRunner } from "../../src/scanner/scan-university.ts";
import { tempDir } from "../support/databases.ts";
import { type ScanWeb, scanSettings, startScanWeb } from "../support/scan-web.ts";
import { WELL_KEPT } from "../support/scan-web-sites.ts";

let web: ScanWeb;
let dir: string;
let opened: OpenedDatabase;

beforeAll(async () => {
  web = await startScanWeb([WELL_KEPT]);
  dir = tempDir("unirank-run-scans-");
  opened = await openDatabase(join(dir, "db.sqlite"));
  await migrate(opened.db);
  await writeRecords(opened.db, [
    { type: "university", domain: "well.test", name: "Wellkept", country: "NL" },
  ]);
}, 60_000);

afterAll(async () => {
  await opened.close();
  await web.close();
  rmSync(dir, { recursive: true, force: true });
});

test("a part's out-of-range score is refused by the writer: the scan is closed as failed, saying why", async () => {
  const seen: ScanOutcome[] = [];
  const summary = await runScans(opened.db, [{ domain: "well.test" }], {
    // In this process: the part is a function of the test.
    scan: inProcessRunner({
      ...scanSettings(web),
      parts: [async () => ({ scores: { tech_speed_mobile_score: 150 }, checks: [], unmeasured: {} })],
    }),
    onScan: (_, o) => seen.push(o),
  });
  expect(summary).toMatchObject({ completed: 0, failed: 1, skipped: 0 });
  expect(seen[0]?.failure_reason).toStartWith("the scan could not be stored: ");
  const row = await opened.db
    .selectFrom("scans")
    .select(["id", "status", "overall_score"])
    .executeTakeFirstOrThrow();
  expect(row).toMatchObject({ status: "failed", overall_score: null });
  const evidence = await scanEvidence(opened.db, Number(row.id));
  expect(String(evidence?.failure_reason)).toStartWith("the scan could not be stored: ");
}, 60_000);

test("two runs that start a scan of one domain in the same second store two scans, not one refused", async () => {
  const second = new Date("2026-11-25T09:14:30.000Z");
  const scan = inProcessRunner({
    ...scanSettings(web),
    parts: [async () => ({ scores: { tech_speed_mobile_score: 50 }, checks: [], unmeasured: {} })],
  });
  const before = await opened.db.selectFrom("scans").select("id").execute();
  for (let run = 0; run < 2; run++) {
    const summary = await runScans(opened.db, [{ domain: "well.test" }], { scan, now: () => second });
    expect(summary).toMatchObject({ completed: 1, failed: 0, skipped: 0 });
  }
  const rows = await opened.db
    .selectFrom("scans")
    .select(["source_id", "status"])
    .where("id", "not in", before.length ? before.map((r) => r.id) : [-1])
    .execute();
  expect(rows.map((r) => r.status)).toEqual(["completed", "completed"]);
  expect(rows[0]?.source_id).toMatch(/^unirank-scan:well\.test:2026-11-25T09:14:30\+00:00:[0-9a-f]{8}$/);
  expect(new Set(rows.map((r) => r.source_id)).size).toBe(2);
}, 60_000);
