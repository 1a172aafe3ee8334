import { expect, test } from "bun:test";
import { sql } from "kysely";
import { capabilitiesOf } from "../../lib/db/capabilities.ts";
import { stats } from "../../lib/index.ts";
import { describeEachDatabase, seedSmall } from "../support/databases.ts";

describeEachDatabase("database harness", (get) => {
  test("seeds, counts and resets", async () => {
    const { db, kind } = get();
    expect(capabilitiesOf(db).family).toBe(kind === "sqlite" ? "sqlite" : "postgres");
    await seedSmall(db, 20);
    const s = await stats(db);
    expect(s.total_universities).toBe(20);
    await get().reset();
    expect((await stats(db)).total_universities).toBe(0);
    await seedSmall(db, 5);
    const first = await sql<{ id: number }>`select min(id) as id from universities`.execute(db);
    expect(Number(first.rows[0]?.id)).toBe(1);
  });
  test("concurrent transactions neither see nor undo each other's work (PGlite is one session)", async () => {
    const { db } = get();
    await get().reset();
    const row = (domain: string) => ({
      domain,
      name: domain,
      country: "DE",
      created_at: "2026-01-01 00:00:00",
      search_text: domain,
    });
    const failing = db.transaction().execute(async (trx) => {
      await trx.insertInto("universities").values(row("rolled-back.example")).execute();
      // Let the other transaction run before this one fails.
      for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
      throw new Error("abort");
    });
    const succeeding = db.transaction().execute(async (trx) => {
      await trx.insertInto("universities").values(row("kept.example")).execute();
    });
    const [a, b] = await Promise.allSettled([failing, succeeding]);
    expect(a.status).toBe("rejected");
    expect(b.status).toBe("fulfilled");
    const domains = await db.selectFrom("universities").select("domain").execute();
    expect(domains.map((d) => d.domain)).toEqual(["kept.example"]);
  });
});
