import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { openSqlite } from "../../src/db/open.ts";
import { tempDir } from "../support/databases.ts";
import { importWhileServing } from "../support/import-while-serving.ts";
import { writeScanFile } from "../support/scan-file.ts";

/**
 * A `serve` process keeps answering while a `unirank import` process writes the file it serves: the import holds
 * the data file's write lock for seconds, and no request may wait on it (rate limits and the audit log are written
 * to the access-state file; SQLite's own busy wait, which would stop the event loop, is off).
 */
describe("serving while another process imports into the served file", () => {
  let dir: string;
  beforeAll(() => {
    dir = tempDir("unirank-ops-");
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test("/health, v1 and v2 reads keep answering 200 during the import", async () => {
    const dbPath = join(dir, "served.db");
    const file = join(dir, "big.ndjson");
    // 6,000 universities and 60,000 scans: several seconds of import on this machine.
    const scans = await writeScanFile(file, 6000, 10);
    const result = await importWhileServing({ dbPath, importFile: file });
    console.log(
      `import of ${6000 + scans} records in ${result.importSeconds} s while serving:`,
      JSON.stringify(
        Object.fromEntries(
          Object.entries(result.probes).map(([k, v]) => [k, { n: v.requests, p50: v.p50Ms, p99: v.p99Ms }]),
        ),
      ),
    );
    expect(result.importStderr).not.toContain("rror");
    expect(result.importExitCode).toBe(0);
    for (const figures of Object.values(result.probes)) {
      expect(figures.failures).toEqual([]);
      expect(figures.requests).toBeGreaterThan(10);
    }
    // The import really landed in the served file; the access state lives beside it.
    const opened = openSqlite(dbPath, { readonly: true });
    const [row] = await opened.db
      .selectFrom("universities")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .execute();
    await opened.close();
    expect(Number(row?.n)).toBeGreaterThanOrEqual(6000);
    expect(existsSync(`${dbPath}.access`)).toBe(true);
  }, 300_000);
});
