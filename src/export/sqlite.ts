import { renameSync, rmSync } from "node:fs";
import { sql } from "kysely";
import type { ExportSelection } from "../../lib/index.ts";
import { type CopyCounts, copyData, type DB, inReadSnapshot, migrate } from "../../lib/index.ts";
import { openSqlite } from "../db/open.ts";
import { partialName } from "./output.ts";

/**
 * `sqlite`: a new unirank database file holding a consistent snapshot of the selected data (universities, scans,
 * evidence, ids kept; `latest_scans` built from them), and none of the rest (keys, audit log, access state,
 * webhook receivers and their secrets, deliveries, scheduler state): those tables exist, empty. One file (no
 * write-ahead log beside it), readable by any SQLite client and servable by `unirank serve --db`.
 */
export async function writeSqliteSnapshot(
  source: DB,
  path: string,
  selection: ExportSelection,
  facts: (snapshot: DB) => Promise<Record<string, string>>,
  onProgress?: (counts: CopyCounts) => void,
): Promise<CopyCounts> {
  const temporary = partialName(path);
  const remove = () => {
    for (const suffix of ["", "-wal", "-shm"]) rmSync(`${temporary}${suffix}`, { force: true });
  };
  remove();
  const target = openSqlite(temporary);
  try {
    await migrate(target.db);
    const counts = await inReadSnapshot(source, async (snapshot) =>
      copyData(snapshot, target.db, selection, await facts(snapshot), onProgress),
    );
    await sql`pragma journal_mode = delete`.execute(target.db);
    await target.close();
    renameSync(temporary, path);
    return counts;
  } catch (e) {
    await target.close().catch(() => {});
    remove();
    throw e;
  }
}
