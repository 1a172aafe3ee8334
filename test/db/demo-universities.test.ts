import { beforeAll, expect, test } from "bun:test";
import { sql } from "kysely";
import { readGeneration } from "../../lib/db/generation.ts";
import {
  addReceiver,
  countDemoUniversities,
  rankings,
  removeDemoUniversities,
  stats,
  writeRecords,
} from "../../lib/index.ts";
import { describeEachDatabase, seedSmall } from "../support/databases.ts";

describeEachDatabase("demo universities: counted and removed (demo remove)", (get) => {
  const count = async (table: string) =>
    Number(
      (await sql<{ n: unknown }>`select count(*) as n from ${sql.table(table)}`.execute(get().db)).rows[0]?.n,
    );

  beforeAll(async () => {
    const db = get().db;
    // The generated dataset is the demo's kind (reserved .example names); two real universities beside it.
    await addReceiver(db, { url: "https://hooks.example.org/unirank", secret: "s" });
    await seedSmall(db);
    await writeRecords(db, [
      { type: "university", domain: "uni-real.nl", name: "Real University", country: "NL" },
      { type: "university", domain: "other.ac.uk", name: "Other University", country: "GB" },
      {
        type: "scan",
        source_id: "real-1",
        domain: "uni-real.nl",
        status: "completed",
        started_at: "2026-11-01 10:00:00",
        completed_at: "2026-11-01 10:05:00",
        tech_seo_score: 80,
      },
    ]);
  });

  test("every university of the generated dataset counts as demo; real ones do not", async () => {
    const db = get().db;
    const demo = await countDemoUniversities(db);
    expect(demo).toBe((await count("universities")) - 2);
    expect(demo).toBeGreaterThan(10);
  });

  test("removal takes them out with what hangs on them, moves the generation, and rankings follow", async () => {
    const db = get().db;
    expect(await count("webhook_deliveries")).toBeGreaterThan(1);
    const demo = await countDemoUniversities(db);
    const demoScans = (await count("scans")) - 1;
    const before = await readGeneration(db);
    expect((await rankings(db, { limit: 100 })).meta.total).toBeGreaterThan(1);
    expect(await removeDemoUniversities(db)).toEqual({ universities: demo, scans: demoScans });
    expect(await readGeneration(db)).toBeGreaterThan(before);
    expect(await countDemoUniversities(db)).toBe(0);
    expect(await count("universities")).toBe(2);
    expect(await count("scans")).toBe(1);
    expect(await count("latest_scans")).toBe(1);
    // The real scan's delivery stays; the demo's went with their scans.
    const deliveries = await sql<{ scan_id: unknown }>`select scan_id from webhook_deliveries`.execute(db);
    expect(deliveries.rows.length).toBe(1);
    const ranked = await rankings(db, { limit: 100 });
    expect(ranked.meta.total).toBe(1);
    expect((await stats(db)).total_universities).toBe(2);
    // Nothing left to remove: nothing changes, not even the generation.
    const after = await readGeneration(db);
    expect(await removeDemoUniversities(db)).toEqual({ universities: 0, scans: 0 });
    expect(await readGeneration(db)).toBe(after);
  });
});
