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
