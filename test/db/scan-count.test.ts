import { beforeAll, expect, test } from "bun:test";
import { type Kysely, sql } from "kysely";
import { getUniversity, writeRecords } from "../../lib/index.ts";
import * as scanCount from "../../lib/migrations/006-scan-count.ts";
import { describeEachDatabase, seedSmall } from "../support/databases.ts";

describeEachDatabase("latest_scans: the number of completed scans (006-scan-count)", (get) => {
  /** university id → completed scans, counted from `scans` itself. */
  const counted = async () => {
    const r = await sql<{ university_id: unknown; n: unknown }>`select university_id, count(*) as n from scans
      where status = 'completed' group by university_id`.execute(get().db);
    return new Map(r.rows.map((row) => [Number(row.university_id), Number(row.n)]));
  };
  const kept = async () => {
    const r = await sql<{ university_id: unknown; scan_count: unknown }>`select university_id, scan_count
      from latest_scans`.execute(get().db);
    return new Map(r.rows.map((row) => [Number(row.university_id), Number(row.scan_count)]));
  };

  beforeAll(async () => {
    await seedSmall(get().db);
  });

  test("refreshLatest keeps each university's count of completed scans, also after a new scan", async () => {
    expect(await kept()).toEqual(await counted());
    const [first] = [...(await kept()).keys()];
    const { domain, scan_count } = await getUniversity(get().db, first as number);
    await writeRecords(get().db, [
      {
        type: "scan",
        source_id: "count-1",
        domain,
        status: "completed",
        completed_at: "2099-01-01T00:00:00Z",
        overall_score: 50,
      },
      { type: "scan", source_id: "count-2", domain, status: "failed", completed_at: "2099-01-02T00:00:00Z" },
    ]);
    expect((await getUniversity(get().db, first as number)).scan_count).toBe(scan_count + 1);
    expect(await kept()).toEqual(await counted());
  });

  test("the migration backfills existing rows as the refresh keeps them", async () => {
    const before = await kept();
    const raw = get().db as unknown as Kysely<unknown>;
    await scanCount.down(raw);
    await scanCount.up(raw);
    expect(await kept()).toEqual(before);
  });

  test("a university without a completed scan has scan_count 0 and no latest scan", async () => {
    await writeRecords(get().db, [
      { type: "university", domain: "never.example", name: "Never", country: "FR" },
    ]);
    const r = await sql<{ id: unknown }>`select id from universities where domain = 'never.example'`.execute(
      get().db,
    );
    const detail = await getUniversity(get().db, Number(r.rows[0]?.id));
    expect(detail.scan_count).toBe(0);
    expect(detail.latest_scan).toBeNull();
  });
});
