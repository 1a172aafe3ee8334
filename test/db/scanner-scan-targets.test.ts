import { beforeAll, expect, test } from "bun:test";
import { scanTargets } from "../../lib/scanner/scan-targets.ts";
import { writeRecords } from "../../lib/write/write-records.ts";
import { describeEachDatabase } from "../support/databases.ts";

describeEachDatabase("scanTargets: which universities `unirank scan` scans", (get) => {
  const now = new Date("2026-11-20T00:00:00Z");
  beforeAll(async () => {
    const uni = (domain: string, country: string) => ({
      type: "university" as const,
      domain,
      name: domain,
      country,
    });
    const scan = (domain: string, completed_at: string) => ({
      type: "scan" as const,
      source_id: `t-${domain}-${completed_at}`,
      domain,
      status: "completed" as const,
      started_at: completed_at,
      completed_at,
      overall_score: 50,
    });
    await writeRecords(get().db, [
      uni("a.test", "NL"),
      uni("b.test", "NL"),
      uni("c.test", "BE"),
      uni("d.test", "NL"),
      scan("a.test", "2026-11-15T00:00:00+00:00"), // 5 days old
      scan("b.test", "2026-09-01T00:00:00+00:00"), // 80 days old
      scan("c.test", "2026-08-01T00:00:00+00:00"), // 111 days old
      // d.test never scanned
    ]);
  });

  test("--all, by domain", async () => {
    expect((await scanTargets(get().db, {})).map((t) => t.domain)).toEqual([
      "a.test",
      "b.test",
      "c.test",
      "d.test",
    ]);
  });
  test("--stale: never scanned first, then the oldest; --country and --limit narrow it", async () => {
    const stale = await scanTargets(get().db, { staleDays: 30, now });
    expect(stale.map((t) => t.domain)).toEqual(["d.test", "c.test", "b.test"]);
    expect((await scanTargets(get().db, { staleDays: 100, now })).map((t) => t.domain)).toEqual([
      "d.test",
      "c.test",
    ]);
    expect((await scanTargets(get().db, { staleDays: 30, country: "nl", now })).map((t) => t.domain)).toEqual(
      ["d.test", "b.test"],
    );
    expect((await scanTargets(get().db, { staleDays: 30, limit: 1, now })).map((t) => t.domain)).toEqual([
      "d.test",
    ]);
  });
  test("named domains: stored ones only, else an error naming the others", async () => {
    expect(await scanTargets(get().db, { domains: ["C.test", "a.test"] })).toEqual([
      { domain: "a.test", name: "a.test", country: "NL" },
      { domain: "c.test", name: "c.test", country: "BE" },
    ]);
    await expect(scanTargets(get().db, { domains: ["a.test", "x.test"] })).rejects.toThrow(
      "not a stored university: x.test (import it first)",
    );
  });
});
