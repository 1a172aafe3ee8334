import { Database as SqliteDatabase } from "bun:sqlite";
import { statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { Kysely } from "kysely";
import { type Database, migrateAccessState, registerDirectRead } from "../../lib/index.ts";
import { BunSqliteDialect } from "./bun-sqlite-dialect.ts";
import type { OpenedDatabase } from "./opened-database.ts";
import { unwritableFile } from "./storage-watch.ts";
import { startWalCheckpointer, WRITER_CHECKPOINT_FALLBACK_PAGES } from "./wal-checkpointer.ts";

export type { OpenedDatabase } from "./opened-database.ts";

export interface SqliteOptions {
  readonly?: boolean;
  /** SQLite page cache in MiB (default 8, the server's). */
  cacheMb?: number;
  /**
   * `memory`: temporary files in memory. An import's multi-row INSERTs each keep a statement journal (the pages
   * they change, for a rollback of that statement alone), written to a temporary file by default: 940,000 writes
   * for 300,000 records.
   */
  tempStore?: "memory";
  /**
   * How long plain reads share one read transaction, ms (`HeldReadSnapshot`; the server's data window). Default 0:
   * each statement its own, as SQLite does.
   */
  readWindowMs?: number;
  /**
   * Checkpoints from a thread of their own (`startWalCheckpointer`), never by this connection after a commit: for a
   * file written on the request path, so its disk syncs do not stop the event loop.
   */
  checkpointThread?: boolean;
}

/** How long a statement waits for a lock held by another process before failing (SQLITE_BUSY), ms. */
export const BUSY_TIMEOUT_MS = 5000;

/**
 * Switches the file to WAL. SQLite skips its busy handler where waiting could deadlock (a process holding a shared
 * lock while another waits for the exclusive one): that SQLITE_BUSY is tried again here, a few ms apart, until
 * `BUSY_TIMEOUT_MS` has passed.
 */
function switchToWal(sqlite: SqliteDatabase): void {
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  for (;;) {
    try {
      sqlite.exec("pragma journal_mode = wal");
      return;
    } catch (e) {
      const busy = /^SQLITE_BUSY/.test(String((e as { code?: unknown }).code ?? ""));
      if (!busy || Date.now() > deadline) throw e;
      Bun.sleepSync(5 + Math.random() * 20);
    }
  }
}

/**
 * Opens a SQLite file with WAL, foreign keys and a busy timeout. The wait for a lock is asynchronous (the dialect
 * retries; SQLite's own `busy_timeout` is 0, as its sleep would stop the event loop, and every request with it).
 */
export function openSqlite(path: string, options: SqliteOptions = {}): OpenedDatabase {
  checkDatabaseDirectory(path);
  const file = path !== ":memory:" && path !== "";
  // A file that may not be written is refused before SQLite maps its WAL index (see `unwritableFile`).
  const unwritable = file && !options.readonly ? unwritableFile(path) : null;
  if (unwritable) throw new Error(`cannot open ${path}: ${unwritable}`);
  const checkpointThread = file && !options.readonly && options.checkpointThread === true;
  let sqlite: SqliteDatabase | undefined;
  try {
    sqlite = new SqliteDatabase(path, options.readonly ? { readonly: true } : { create: true });
    // Switching a new file to WAL needs its lock: waited for here, at open, where several processes may start at
    // once; every later statement waits asynchronously in the dialect instead.
    sqlite.exec(`pragma busy_timeout = ${BUSY_TIMEOUT_MS}`);
    if (!options.readonly) switchToWal(sqlite);
    sqlite.exec("pragma busy_timeout = 0");
    sqlite.exec("pragma synchronous = normal");
    sqlite.exec("pragma foreign_keys = on");
    if (options.tempStore === "memory") sqlite.exec("pragma temp_store = memory");
    // 8 MB of page cache by default (the OS caches the file too): 64 MB cost ~70 MB of server RSS; reads that miss
    // pay for it. A bulk import asks for more (its index pages are written at random).
    sqlite.exec(`pragma cache_size = -${Math.round((options.cacheMb ?? 8) * 1024)}`);
    if (checkpointThread) sqlite.exec(`pragma wal_autocheckpoint = ${WRITER_CHECKPOINT_FALLBACK_PAGES}`);
  } catch (e) {
    sqlite?.close();
    const code = (e as { code?: string }).code;
    throw new Error(`cannot open ${path}: ${code ? `${code}: ` : ""}${(e as Error).message}`);
  }
  const dialect = new BunSqliteDialect(sqlite, BUSY_TIMEOUT_MS, options.readWindowMs ?? 0);
  const db = new Kysely<Database>({ dialect });
  registerDirectRead(db, (query) => dialect.readNow(query));
  const checkpointer = checkpointThread ? startWalCheckpointer(path) : null;
  return {
    db,
    kind: "sqlite",
    close: async () => {
      // The thread's connection first, so this one is the last and folds the WAL into the file as it closes.
      await checkpointer?.stop();
      await db.destroy();
    },
    stopWrites: (reason) => {
      dialect.stopWrites(reason);
      checkpointer?.pause(reason !== null);
    },
  };
}

/** A SQLite file is created where it is asked for, never the directories above it: a missing one is an error. */
export function checkDatabaseDirectory(location: string): void {
  if (location === ":memory:" || location === "" || /^postgres(ql)?:\/\//.test(location)) return;
  const dir = dirname(resolve(location));
  let isDirectory = false;
  try {
    isDirectory = statSync(dir).isDirectory();
  } catch {
    isDirectory = false;
  }
  if (!isDirectory) throw new Error(`the database's directory ${dir} does not exist; create it first`);
}

/** Opens the database a `--db` value names: a `postgres://` URL or a SQLite file path. */
export async function openDatabase(location: string, sqlite: SqliteOptions = {}): Promise<OpenedDatabase> {
  if (/^postgres(ql)?:\/\//.test(location)) {
    const { openPostgres } = await import("./postgres.ts");
    return openPostgres(location);
  }
  return openSqlite(location, sqlite);
}

/**
 * The access-state file's page cache, MiB. Its writes append (audit rows, counts of new clients), so a larger cache
 * fills with pages written once and not read again (docs/performance.md, *What the memory holds, part by part*).
 */
export const ACCESS_STATE_CACHE_MB = 2;

/**
 * Where request-path writes go (rate limits, signature replays, the audit log). A SQLite file keeps them in a file
 * of its own beside it, `<file>.access` (so no request waits on the lock of another process writing the data, an
 * import); PostgreSQL (row locks) and `:memory:` keep them in the data database. A server, which writes it on the
 * request path, asks for its checkpoints in a thread of their own (`checkpointThread`).
 */
export async function openAccessState(
  location: string,
  data: OpenedDatabase,
  options: Pick<SqliteOptions, "checkpointThread"> = {},
): Promise<OpenedDatabase> {
  if (data.kind === "postgres" || location === ":memory:" || location === "") {
    return { ...data, close: async () => {} };
  }
  const path = accessStatePath(location);
  const what = "the access-state file (rate limits, signature replays, the audit log)";
  let opened: OpenedDatabase;
  try {
    opened = openSqlite(path, { ...options, cacheMb: ACCESS_STATE_CACHE_MB });
  } catch (e) {
    throw new Error(`${(e as Error).message}; it is ${what} beside ${location}`);
  }
  try {
    await migrateAccessState(opened.db);
  } catch (e) {
    await opened.close();
    throw new Error(`cannot open ${path}, ${what} beside ${location}: ${(e as Error).message}`);
  }
  return opened;
}

/** The access-state file of a SQLite data file. */
export function accessStatePath(location: string): string {
  return `${location}.access`;
}

/** A `--db` value fit for logs and messages: a PostgreSQL URL with its password replaced by `***`. */
export function displayLocation(location: string): string {
  if (!/^postgres(ql)?:\/\//.test(location)) return location;
  try {
    const u = new URL(location);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "postgres://(unparsable URL)";
  }
}
