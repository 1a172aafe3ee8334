import { beforeAll, expect, test } from "bun:test";
import { type Kysely, sql } from "kysely";
import { RANKED_SCORES, writeRecords } from "../../lib/index.ts";
import * as previousScan from "../../lib/migrations/004-previous-scan.ts";
import { describeEachDatabase, seedSmall } from "../support/databases.ts";

type Row = Record<string, unknown>;
const PREV_COLS = ["previous_scan_id", "previous_completed_at", ...RANKED_SCORES.map((c) => `prev_${c}`)];

describeEachDatabase("latest_scans: the previous completed scan (004-previous-scan)", (get) => {
  const snapshot = async (): Promise<Row[]> => {
    const cols = ["university_id", "scan_id", ...PREV_COLS].map((c) => sql.ref(c));
    const r = await sql<Row>`select ${sql.join(cols)} from latest_scans order by university_id`.execute(
      get().db,
    );
    // PostgreSQL returns some integers as strings: compare as numbers.
    return r.rows.map((row) =>
      Object.fromEntries(
        Object.entries(row).map(([k, v]) => [k, typeof v === "string" && /_id$/.test(k) ? Number(v) : v]),
      ),
    );
  };

  beforeAll(async () => {
    await seedSmall(get().db);
  });

  test("refreshLatest keeps the completed scan just before the latest, with its scores", async () => {
    const rows = await snapshot();
    const scans = await sql<Row>`select * from scans where status = 'completed'`.execute(get().db);
    const byUniversity = new Map<number, Row[]>();
    for (const s of scans.rows) {
      const u = Number(s.university_id);
      byUniversity.set(u, [...(byUniversity.get(u) ?? []), s]);
    }
    let withPrevious = 0;
    let withoutPrevious = 0;
    for (const row of rows) {
      const list = (byUniversity.get(Number(row.university_id)) ?? []).sort((a, b) =>
        a.completed_at === b.completed_at
          ? Number(a.id) - Number(b.id)
          : String(a.completed_at) < String(b.completed_at)
            ? -1
            : 1,
      );
      expect(Number(list.at(-1)?.id)).toBe(Number(row.scan_id));
      const prev = list.at(-2);
      if (!prev) {
        withoutPrevious++;
        for (const c of PREV_COLS) expect(row[c]).toBeNull();
        continue;
      }
      withPrevious++;
      expect(row.previous_scan_id).toBe(Number(prev.id));
      expect(row.previous_completed_at).toBe(prev.completed_at);
      for (const c of RANKED_SCORES) expect(row[`prev_${c}`] ?? null).toEqual(prev[c] ?? null);
    }
    expect(withPrevious).toBeGreaterThan(10);
    expect(withoutPrevious + withPrevious).toBe(rows.length);
  });

  test("the migration backfills existing rows exactly as refreshLatest maintains them", async () => {
    const before = await snapshot();
    const raw = get().db as unknown as Kysely<unknown>;
    await previousScan.down(raw);
    await previousScan.up(raw);
    expect(await snapshot()).toEqual(before);
  });

  test("a newer scan moves the latest one to previous", async () => {
    const [row] = await snapshot();
    if (!row) throw new Error("no latest scan");
    const domain = await sql<{
      domain: string;
    }>`select domain from universities where id = ${row.university_id}`.execute(get().db);
    await writeRecords(get().db, [
      {
        type: "scan",
        source_id: "previous-scan-test-1",
        domain: domain.rows[0]?.domain as string,
        status: "completed",
        completed_at: "2099-01-01T00:00:00+00:00",
        overall_score: 1,
      },
    ]);
    const [after] = await snapshot();
    expect(after?.previous_scan_id).toBe(row.scan_id);
    expect(after?.scan_id).not.toBe(row.scan_id);
  });
});
