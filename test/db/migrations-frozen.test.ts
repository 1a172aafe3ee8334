import { expect, test } from "bun:test";
import { RANKED_SCORES, SCORE_NAMES } from "../../lib/index.ts";
import { RANKED_COLUMNS_001, SCORE_COLUMNS_001 } from "../../lib/migrations/001-core.ts";
import { describeEachDatabase } from "../support/databases.ts";

test("migration 001's frozen score columns are the catalogue's (a new score needs a migration of its own)", () => {
  expect([...SCORE_COLUMNS_001]).toEqual([...SCORE_NAMES]);
  expect([...RANKED_COLUMNS_001]).toEqual([...RANKED_SCORES]);
});

describeEachDatabase("migrations", (get) => {
  test("the migrated schema holds one column per score of the catalogue, and latest_scans one per ranked score", async () => {
    const tables = await get().db.introspection.getTables();
    const columns = (name: string) =>
      new Set(tables.find((t) => t.name === name)?.columns.map((c) => c.name) ?? []);
    const scans = columns("scans");
    const latest = columns("latest_scans");
    expect(SCORE_NAMES.filter((n) => !scans.has(n))).toEqual([]);
    expect([...scans].filter((c) => c.endsWith("_score")).sort()).toEqual([...SCORE_NAMES].sort());
    const ranked = [...RANKED_SCORES, ...RANKED_SCORES.map((n) => `prev_${n}`)].sort();
    expect([...latest].filter((c) => c.endsWith("_score")).sort()).toEqual(ranked);
    expect([...columns("scan_evidence")].sort()).toEqual(["evidence", "scan_id"]);
  });
});
