import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { readGeneration } from "../../lib/db/generation.ts";
import { inReadSnapshot } from "../../lib/db/read-snapshot.ts";
import { type DB, importRecords, writeRecords } from "../../lib/index.ts";
import { fileSource } from "../../lib/node/file-source.ts";
import { openDatabase, openSqlite } from "../../src/db/open.ts";
import { runExport } from "../../src/export/run-export.ts";
import { DATABASES, describeEachDatabase, type TestDatabase, tempDir } from "../support/databases.ts";
import { apiAnswers, writeExportFixture } from "../support/export-fixture.ts";

/** The entries of two answer maps that differ (path, then both answers), for a readable failure. */
function differences(a: Map<string, string>, b: Map<string, string>): string[] {
  const out: string[] = [];
  for (const [path, answer] of a) {
    if (b.get(path) !== answer)
      out.push(`${path}\n  source: ${answer.slice(0, 300)}\n  copy:   ${b.get(path)?.slice(0, 300)}`);
  }
  for (const path of b.keys()) if (!a.has(path)) out.push(`${path}: only in the copy`);
  return out;
}

describeEachDatabase("export round trip", (get) => {
  let dir: string;
  let source: Map<string, string>;
  beforeAll(async () => {
    dir = tempDir("unirank-export-");
    await get().reset();
    await writeExportFixture(get().db, 25);
    source = await apiAnswers(get().db);
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test("the fixture gives answers worth comparing", () => {
    expect(source.size).toBeGreaterThan(300);
    const bodies = [...source.values()].join("\n");
    expect(bodies).toContain("evidence");
    expect(bodies).toContain("hsts.max-age");
    expect(bodies).toContain("🎓 Emoji University 🦆");
    // A university without a completed scan has no scores to show, a failed scan no diff: 404s, compared too.
    const statuses = [...source.values()].map((a) => a.slice(0, 3));
    expect(statuses.filter((s) => s !== "200" && s !== "404")).toEqual([]);
    expect(statuses.filter((s) => s === "404").length).toBeLessThan(10);
  });

  test("ndjson → import into an empty database of every kind: the same v1 and v2 answers, evidence included", async () => {
    const file = join(dir, "all.ndjson.gz");
    const summary = await runExport(get().db, { format: "ndjson", path: file, version: "test" });
    expect(summary.universities).toBe(25 + 9);
    for (const factory of DATABASES) {
      if (factory.unavailable) continue;
      const target = await factory.create();
      if (!target) continue;
      try {
        const result = await importRecords(target.db, [fileSource(file)], { events: false });
        expect(result.rejected).toBe(0);
        expect(result.scans.inserted).toBe(summary.scans);
        expect(differences(source, await apiAnswers(target.db)), `${get().kind} → ${factory.kind}`).toEqual(
          [],
        );
      } finally {
        await target.close();
      }
    }
  }, 300_000);

  test("the sqlite snapshot serves the same answers (ids kept) and holds no keys, audit or webhook secrets", async () => {
    const db = get().db;
    await db
      .insertInto("webhook_receivers")
      .values({ url: "https://hooks.example/x", secret: "s3cret", created_at: "2026-01-01T00:00:00+00:00" })
      .execute();
    const file = join(dir, "snapshot.db");
    await runExport(db, { format: "sqlite", path: file, version: "test" });
    const snapshot = openSqlite(file, { readonly: true });
    try {
      expect(differences(source, await apiAnswers(snapshot.db))).toEqual([]);
      expect(await snapshot.db.selectFrom("webhook_receivers").selectAll().execute()).toEqual([]);
      expect(
        await snapshot.db
          .selectFrom("api_keys" as never)
          .selectAll()
          .execute(),
      ).toEqual([]);
      const meta = await snapshot.db.selectFrom("unirank_meta").selectAll().execute();
      expect(meta.find((m) => m.key === "unirank_generation")?.value).toBe(String(await readGeneration(db)));
    } finally {
      await snapshot.close();
      await db.deleteFrom("webhook_receivers").execute();
    }
  }, 120_000);

  test("a selection: countries, domains, and scans since a time", async () => {
    const file = join(dir, "some.ndjson");
    const summary = await runExport(get().db, {
      format: "ndjson",
      path: file,
      version: "test",
      selection: { countries: ["IL", "SA"], since: "2026-11-01T00:00:00+00:00" },
    });
    const db = get().db;
    const selected = await db
      .selectFrom("universities")
      .select("id")
      .where("country", "in", ["IL", "SA"])
      .execute();
    expect(summary.universities).toBe(selected.length);
    const since = await db
      .selectFrom("scans")
      .select("id")
      .where(
        "university_id",
        "in",
        selected.map((u) => u.id),
      )
      .where((e) => e(e.fn.coalesce("completed_at", "started_at"), ">=", "2026-11-01T00:00:00+00:00"))
      .execute();
    expect(summary.scans).toBe(since.length);
    // At least the awkward universities' new scans, and their failed or running one (pending: no time, left out).
    expect(summary.scans).toBeGreaterThanOrEqual(9 + 6);
    const only = await runExport(get().db, {
      format: "ndjson",
      path: join(dir, "one.ndjson"),
      version: "test",
      selection: { domains: ["awkward-0.example"] },
    });
    expect([only.universities, only.scans]).toEqual([1, 3]);
  });
});

/** Needs a second connection writing while the snapshot is open: SQLite files and PostgreSQL servers. */
for (const factory of DATABASES) {
  describe(`export snapshot [${factory.kind}]`, () => {
    if (factory.unavailable || factory.kind === "pglite") {
      test.skip(`${factory.kind}: ${factory.unavailable ?? "one connection per database, so nothing can write while a snapshot holds it"}`, () => {});
      return;
    }
    let current: TestDatabase | null = null;
    beforeAll(async () => {
      current = await factory.create();
    }, 120_000);
    afterAll(() => current?.close());
    const get = () => current as TestDatabase;
    test("an export reads one snapshot: a write committed while it runs is not in it", async () => {
      const { kind, location } = get();
      const other = await openDatabase(location as string);
      try {
        const counts = await inReadSnapshot(get().db, async (snapshot: DB) => {
          const before = await snapshot
            .selectFrom("universities")
            .select((e) => e.fn.countAll().as("n"))
            .executeTakeFirstOrThrow();
          await writeRecords(other.db, [
            { type: "university", domain: `late-${kind}.example`, name: "Late", country: "DE" },
          ]);
          const after = await snapshot
            .selectFrom("universities")
            .select((e) => e.fn.countAll().as("n"))
            .executeTakeFirstOrThrow();
          return [Number(before.n), Number(after.n)];
        });
        expect(counts[1]).toBe(counts[0]);
        const now = await get()
          .db.selectFrom("universities")
          .select((e) => e.fn.countAll().as("n"))
          .executeTakeFirstOrThrow();
        expect(Number(now.n)).toBe((counts[0] ?? 0) + 1);
      } finally {
        await other.db.deleteFrom("universities").where("domain", "=", `late-${kind}.example`).execute();
        await other.close();
      }
    });
  });
}
