import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { sql } from "kysely";
import { migrate } from "../../lib/index.ts";
import { MIGRATIONS } from "../../lib/migrations/migrate.ts";
import { openDatabase } from "../../src/db/open.ts";
import { tempDir } from "../support/databases.ts";
import { testPostgres } from "../support/postgres-server.ts";

const ROOT = join(import.meta.dir, "../..");
const available = await testPostgres();

async function runMigrate(location: string) {
  const proc = Bun.spawn(["bun", "src/cli.ts", "migrate", "--db", location], {
    cwd: ROOT,
    stdout: "pipe",
    stderr: "pipe",
  });
  const [code, out, err] = await Promise.all([
    proc.exited,
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
  ]);
  return { code, out, err };
}

/** Every migration is recorded exactly once and the schema is complete. */
async function expectMigratedOnce(location: string) {
  const opened = await openDatabase(location);
  try {
    const rows = await sql<{ name: string }>`select name from unirank_migrations order by name`.execute(
      opened.db,
    );
    expect(rows.rows.map((r) => r.name)).toEqual(Object.keys(MIGRATIONS).sort());
    const tables = await opened.db.introspection.getTables();
    expect(tables.map((t) => t.name)).toContain("latest_scans");
    expect((await migrate(opened.db)).applied).toEqual([]);
  } finally {
    await opened.close();
  }
}

describe("migrations when several servers start at once", () => {
  const processes = 6;

  test.skipIf(!available.ok)(
    `postgres: ${processes} processes migrate one fresh database concurrently`,
    async () => {
      if (!available.ok) return;
      const url = await available.server.createDatabase("unirank_migrate");
      const results = await Promise.all(Array.from({ length: processes }, () => runMigrate(url)));
      for (const r of results) expect({ code: r.code, err: r.err }).toEqual({ code: 0, err: "" });
      // Exactly one process applied the migrations; the others found the schema current.
      const appliedBy = results.filter((r) => r.out.startsWith("applied:"));
      expect(appliedBy.length).toBe(1);
      await expectMigratedOnce(url);
    },
    120_000,
  );

  test.skipIf(!available.ok)("postgres: connections of one process migrate concurrently", async () => {
    if (!available.ok) return;
    const url = await available.server.createDatabase("unirank_migrate");
    const opened = await Promise.all(Array.from({ length: 8 }, () => openDatabase(url)));
    try {
      const results = await Promise.all(opened.map((o) => migrate(o.db)));
      expect(results.filter((r) => r.applied.length > 0).length).toBe(1);
    } finally {
      await Promise.all(opened.map((o) => o.close()));
    }
    await expectMigratedOnce(url);
  });

  test(`sqlite: ${processes} processes migrate one new file concurrently`, async () => {
    const path = join(tempDir(), "concurrent.db");
    const results = await Promise.all(Array.from({ length: processes }, () => runMigrate(path)));
    for (const r of results) expect({ code: r.code, err: r.err }).toEqual({ code: 0, err: "" });
    expect(results.filter((r) => r.out.startsWith("applied:")).length).toBe(1);
    await expectMigratedOnce(path);
  }, 120_000);

  if (!available.ok) {
    test.skip(`postgres is not available: ${available.reason}`, () => {});
  }
});
