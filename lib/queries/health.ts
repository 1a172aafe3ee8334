import { sql } from "kysely";
import { sharedRead } from "../db/shared-read.ts";
import type { SchedulerState } from "../scanner/scheduler/scheduler.ts";
import type { DB } from "../schema/database.ts";
import { type Clock, isoTimestamp, systemClock } from "../time/format.ts";

export type CheckStatus = "ok" | "warn" | "error";
export type HealthStatus = "healthy" | "degraded" | "unhealthy";

/** What the host can tell about itself; the server adapter supplies these (the core reads no files). */
export interface HostChecks {
  /** Free space where the database lives, in bytes. */
  freeDiskBytes(): Promise<number>;
  /** Whether the log directory accepts writes. */
  logsWritable(): Promise<boolean>;
  /** Entries held in the response cache. */
  cacheEntries(): number;
  /**
   * Whether the database's storage reads back as a database (a file read past every page cache); false makes the
   * database check fail. Absent: the database query alone decides.
   */
  storageReadable?(): Promise<boolean>;
  /**
   * What is wrong with the database's storage beyond a read, in words (the file replaced under the server): the
   * database check fails with it. Absent or null: nothing.
   */
  storageFault?(): string | null;
  /** Writes that fail now (a full disk, an unwritable file): the `writes` check warns with them. */
  failingWrites?(): { what: string; cause: string; since: string }[];
}

export interface HealthOptions {
  version: string;
  hostChecks: HostChecks;
  /** Free disk below this many GB makes the disk check warn. */
  minFreeDiskGb?: number;
  clock?: Clock;
  /** The scan scheduler's state, when this server scans. */
  scanner?: () => SchedulerState;
}

export interface ScannerCheck {
  status: CheckStatus;
  running: number;
  backlog: number;
  /** Finished scans waiting for the storage to take them (retried every tick). */
  unstored: number;
  last_error: SchedulerState["last_error"];
}

export interface WritesCheck {
  status: CheckStatus;
  failing?: { what: string; cause: string; since: string }[];
}

export interface Health {
  status: HealthStatus;
  version: string;
  timestamp: string;
  checks: {
    database: { status: CheckStatus; latency_ms?: number; error?: string };
    disk: { status: CheckStatus; free_gb: number | null };
    logs: { status: CheckStatus; writable: boolean };
    cache: { status: CheckStatus; entries: number };
    /** Present where the host reports its writes (`serve`); warns while any fails. */
    writes?: WritesCheck;
    /** Present while this server scans; warns when the scheduler's own last step failed. */
    scanner?: ScannerCheck;
  };
}

async function settle<T>(f: () => Promise<T>): Promise<T | Error> {
  try {
    return await f();
  } catch (e) {
    return e instanceof Error ? e : new Error(String(e));
  }
}

type DatabaseCheck = Health["checks"]["database"];

/**
 * The database check: a real query, shared by the requests of the following millisecond (`sharedRead`), so a load
 * of health checks costs one query a millisecond instead of one SQLite read lock each.
 */
const databaseCheck = sharedRead(async (db: DB): Promise<DatabaseCheck> => {
  const started = performance.now();
  try {
    await sql`select count(*) as n from universities where id = 1`.execute(db);
    return { status: "ok", latency_ms: Math.round((performance.now() - started) * 100) / 100 };
  } catch {
    return { status: "error", error: "database query failed" };
  }
}, 1);

/** Real checks: a database query, free disk, log directory writability, cache size. */
export async function health(db: DB, options: HealthOptions): Promise<Health> {
  const { hostChecks: host, minFreeDiskGb = 1 } = options;
  const [queried, readable, free, writable] = await Promise.all([
    databaseCheck(db),
    settle(async () => (host.storageReadable ? host.storageReadable() : true)),
    settle(() => host.freeDiskBytes()),
    settle(() => host.logsWritable()),
  ]);
  const fault = host.storageFault?.() ?? null;
  const database: DatabaseCheck =
    fault !== null
      ? { status: "error", error: fault }
      : queried.status === "ok" && readable !== true
        ? { status: "error", error: "database storage unreadable" }
        : queried;
  const failing = host.failingWrites?.();
  const writes: WritesCheck | undefined =
    failing === undefined ? undefined : failing.length === 0 ? { status: "ok" } : { status: "warn", failing };
  const freeGb = free instanceof Error ? null : Math.round((free / 1024 ** 3) * 100) / 100;
  const disk = {
    status: (freeGb !== null && freeGb >= minFreeDiskGb ? "ok" : "warn") as CheckStatus,
    free_gb: freeGb,
  };
  const logsOk = writable === true;
  const logs = { status: (logsOk ? "ok" : "warn") as CheckStatus, writable: logsOk };
  const cache = { status: "ok" as CheckStatus, entries: host.cacheEntries() };
  const scanning = options.scanner?.();
  const scanner: ScannerCheck | undefined = scanning && {
    status: scanning.broken || scanning.unstored > 0 ? "warn" : "ok",
    running: scanning.running,
    backlog: scanning.backlog,
    unstored: scanning.unstored,
    last_error: scanning.last_error,
  };
  const checks = {
    database,
    disk,
    logs,
    cache,
    ...(writes ? { writes } : {}),
    ...(scanner ? { scanner } : {}),
  };
  const status: HealthStatus =
    database.status === "error"
      ? "unhealthy"
      : Object.values(checks).every((c) => c.status === "ok")
        ? "healthy"
        : "degraded";
  return {
    status,
    version: options.version,
    timestamp: isoTimestamp((options.clock ?? systemClock)()),
    checks,
  };
}
