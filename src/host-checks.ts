import { Database } from "bun:sqlite";
import { accessSync, constants, mkdirSync, statfsSync, unlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { HostChecks } from "../lib/index.ts";

/**
 * Remembers a check's answer for `ms`: under load, /health would otherwise create and delete a file and
 * stat the disk on every request (most of its time in a CPU profile: docs/performance.md). The checks stay real, at most `ms` old.
 */
function fresh<T>(ms: number, check: () => Promise<T>): () => Promise<T> {
  let last: { at: number; value: Promise<T> } | null = null;
  return () => {
    const now = performance.now();
    if (!last || now - last.at >= ms) last = { at: now, value: check() };
    return last.value;
  };
}

/**
 * Reads a SQLite file through a connection of its own, opened for this read: its page cache is empty, so the
 * schema and the root pages of the data tables come from the file (the server's connection may answer from pages
 * it cached before the file was overwritten). False when they do not read back; true for a lock held elsewhere
 * (nothing known) and for databases that are not files.
 */
export function sqliteStorageReadable(path: string): boolean {
  if (/^postgres/.test(path) || path === ":memory:" || path === "") return true;
  let conn: Database | undefined;
  try {
    conn = new Database(path, { readonly: true });
    conn.exec("pragma busy_timeout = 0");
    for (const table of ["universities", "scans", "latest_scans", "unirank_meta"]) {
      conn.query(`select * from ${table} limit 1`).all();
    }
    conn.query("select max(id) from scans").all();
    return true;
  } catch (e) {
    return /SQLITE_BUSY/.test(String((e as { code?: unknown }).code ?? ""));
  } finally {
    conn?.close();
  }
}

/** Health checks of this host: free disk where the database is, a real write into the log directory. */
export function hostChecks(options: {
  dbPath: string;
  logDir: string;
  cacheEntries?: () => number;
  /** How long a disk, log or storage check's answer is reused (default 1000 ms; 0 = check on every call). */
  refreshMs?: number;
}): HostChecks {
  const every = options.refreshMs ?? 1000;
  const checks = {
    async freeDiskBytes() {
      const s = statfsSync(/^postgres/.test(options.dbPath) ? "." : dirname(options.dbPath));
      return Number(s.bavail) * Number(s.bsize);
    },
    async logsWritable() {
      try {
        mkdirSync(options.logDir, { recursive: true });
        accessSync(options.logDir, constants.W_OK);
        const file = join(options.logDir, `.health-${process.pid}`);
        writeFileSync(file, "ok");
        unlinkSync(file);
        return true;
      } catch {
        return false;
      }
    },
    cacheEntries: options.cacheEntries ?? (() => 0),
    storageReadable: async () => sqliteStorageReadable(options.dbPath),
  };
  return {
    freeDiskBytes: fresh(every, checks.freeDiskBytes),
    logsWritable: fresh(every, checks.logsWritable),
    cacheEntries: checks.cacheEntries,
    storageReadable: fresh(every, checks.storageReadable),
  };
}
