import { afterAll, beforeAll, expect, test } from "bun:test";
import { sql } from "kysely";
import { readGeneration, setGenerationWindow } from "../../lib/db/generation.ts";
import { type DB, leaderboard, listUniversities, rankings, writeRecords } from "../../lib/index.ts";
import { refreshLatest } from "../../lib/write/refresh-latest.ts";
import { describeEachDatabase } from "../support/databases.ts";
import { writeFixture } from "../support/fixtures.ts";

/**
 * Writes made with raw SQL, as an operator would in `sqlite3` or `psql`, reach every derived structure: the data
 * triggers (migration 007) bump the generation and keep `latest_scans` as `refreshLatest` would compute it.
 * The generation window is 0: every read sees the latest commit.
 */
const latestRows = async (db: DB) =>
  (
    await sql<Record<string, unknown>>`select * from latest_scans order by university_id`.execute(db)
  ).rows.map((r) => JSON.stringify(Object.entries(r).map(([k, v]) => [k, v === null ? null : String(v)])));

/** `latest_scans` as the triggers left it equals a full recomputation (inside a rolled-back transaction). */
async function expectLatestExact(db: DB) {
  const kept = await latestRows(db);
  let recomputed: string[] = [];
  await db
    .transaction()
    .execute(async (trx) => {
      await refreshLatest(trx);
      recomputed = await latestRows(trx);
      throw new Error("rollback");
    })
    .catch(() => {});
  expect(kept).toEqual(recomputed);
}

describeEachDatabase("data triggers: raw SQL reaches every derived structure", (get) => {
  let kappa = 0;
  beforeAll(async () => {
    setGenerationWindow(0);
    const ids = await writeFixture(get().db);
    kappa = ids.get("kappa.gb.example") ?? 0;
  });
  afterAll(() => setGenerationWindow(1));

  test("unirank's own writer bumps the generation once per write; the triggers stay quiet and leave no trace", async () => {
    const { db } = get();
    const before = await readGeneration(db);
    await writeRecords(db, [
      { type: "university", domain: "quiet-triggers.nl.example", name: "Quiet Triggers", country: "NL" },
    ]);
    expect(await readGeneration(db)).toBe(before + 1);
    // Every trigger is back after the writer's commit (SQLite drops them inside its transaction).
    if (get().kind === "sqlite") {
      const triggers = await sql`select name from sqlite_master where type = 'trigger'`.execute(db);
      expect(triggers.rows.length).toBe(6);
    }
  });

  test("a raw rename shows in rankings, leaderboards and search", async () => {
    const { db } = get();
    const g = await readGeneration(db);
    expect((await listUniversities(db, { search: "Qwerty Renamed" })).meta.total).toBe(0);
    await sql`update universities set name = 'Qwerty Renamed Kappa' where id = ${kappa}`.execute(db);
    expect(await readGeneration(db)).toBeGreaterThan(g);
    const ranked = await rankings(db, { limit: 100 });
    expect(ranked.data.find((e) => e.id === kappa)?.name).toBe("Qwerty Renamed Kappa");
    const board = await leaderboard(db, "technical", { limit: 100 });
    expect(JSON.stringify(board)).toContain("Qwerty Renamed Kappa");
    const found = await listUniversities(db, { search: "qwerty renamed" });
    expect(found.data.map((u) => u.id)).toEqual([kappa]);
  });

  test("a raw score change, a new scan and a deleted scan move the rankings; latest_scans stays exact", async () => {
    const { db } = get();
    const latest = async () =>
      (
        await db
          .selectFrom("latest_scans")
          .select("scan_id")
          .where("university_id", "=", kappa)
          .executeTakeFirst()
      )?.scan_id;
    const scanId = Number(await latest());
    await sql`update scans set overall_score = 99 where id = ${scanId}`.execute(db);
    let top = (await rankings(db, { limit: 1 })).data[0];
    expect([top?.id, top?.overall_score]).toEqual([kappa, 99]);
    await expectLatestExact(db);

    await sql`insert into scans (university_id, source_id, status, completed_at, overall_score)
      values (${kappa}, 'raw-1', 'completed', '2026-06-01T00:00:00+00:00', 12)`.execute(db);
    top = (await rankings(db, { limit: 100 })).data.find((e) => e.id === kappa);
    expect(top?.overall_score).toBe(12);
    await expectLatestExact(db);

    await sql`delete from scans where source_id = 'raw-1'`.execute(db);
    top = (await rankings(db, { limit: 1 })).data[0];
    expect([top?.id, top?.overall_score]).toEqual([kappa, 99]);
    await expectLatestExact(db);

    await sql`update universities set country = 'FR' where id = ${kappa}`.execute(db);
    expect((await rankings(db, { country: "FR" } as never)).data.map((e) => e.id)).toEqual([kappa]);
    await expectLatestExact(db);
  });
});
