import { expect, test } from "bun:test";
import { sql } from "kysely";
import { dialectKind, stats } from "../lib/index.ts";
import { describeEachDatabase, seedSmall } from "./support/databases.ts";

describeEachDatabase("database harness", (get) => {
  test("seeds, counts and resets", async () => {
    const { db, kind } = get();
    expect(dialectKind(db)).toBe(kind === "sqlite" ? "sqlite" : "postgres");
    await seedSmall(db, 20);
    const s = await stats(db);
    expect(s.total_universities).toBe(20);
    await get().reset();
    expect((await stats(db)).total_universities).toBe(0);
    await seedSmall(db, 5);
    const first = await sql<{ id: number }>`select min(id) as id from universities`.execute(db);
    expect(Number(first.rows[0]?.id)).toBe(1);
  });
});
