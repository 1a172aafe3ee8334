import { expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { sql } from "kysely";
import type { DB } from "../../lib/index.ts";
import { ACCESS_STATE_CACHE_MB, openAccessState, openSqlite } from "../../src/db/open.ts";
import { tempDir } from "../support/databases.ts";

/** The page cache each SQLite file of a server gets: the data's 8 MiB, the access state's `ACCESS_STATE_CACHE_MB`. */
const cacheKib = async (db: DB) =>
  -Number((await sql<{ cache_size: number }>`pragma cache_size`.execute(db)).rows[0]?.cache_size);

test("the data file keeps 8 MiB of pages, the access-state file beside it less", async () => {
  const dir = tempDir();
  try {
    const data = openSqlite(join(dir, "unirank.db"));
    const access = await openAccessState(join(dir, "unirank.db"), data);
    try {
      expect(await cacheKib(data.db)).toBe(8 * 1024);
      expect(await cacheKib(access.db)).toBe(ACCESS_STATE_CACHE_MB * 1024);
      expect(ACCESS_STATE_CACHE_MB).toBeLessThan(8);
    } finally {
      await access.close();
      await data.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
