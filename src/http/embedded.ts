import { statfsSync } from "node:fs";
import type { DB } from "../../lib/index.ts";
import { VERSION } from "../version.ts";
import { type AccessGuard, type AccessSettings, createAccessGuard } from "./access.ts";
import { createApp } from "./app.ts";
import { ResponseCache } from "./cache.ts";
import type { AppContext } from "./context.ts";
import { keepHistories } from "./spliced-json/history-table.ts";

/** Access-control settings of an embedded API (the database, clock and log are the API's own). */
export type AccessOptions = Omit<AccessSettings, "db" | "clock" | "log">;

/** Settings of an embedded unirank API; everything but `db` has a default. */
export interface UnirankOptions extends Partial<Omit<AppContext, "db" | "access">> {
  /** The embedder's Kysely instance (SQLite, PostgreSQL, PGlite, ...), migrated with `migrate(db)`. */
  db: DB;
  /**
   * Path the API lives under: `/unirank` serves `/unirank/api/v1/...`, `/unirank/health`, `/unirank/docs`.
   * Default `""`, the root (the API then also answers, with its 404, every path the embedder does not route).
   */
  prefix?: string;
  /**
   * API keys, rate limits, HMAC signatures and the audit log, as the standalone server has them (default: on,
   * 100 anonymous requests per rolling hour per client IP, no trusted proxy). `false` turns it all off; an
   * `AccessGuard` (from `createAccessGuard`) is used as is.
   */
  access?: AccessOptions | AccessGuard | false;
  /**
   * Most completed scans whose histories are kept in memory for the history and export answers (default
   * 2,000,000, about 36 MB); past it they are read from the database; 0 always reads them there.
   */
  historyScans?: number;
}

/** `/unirank/` → `/unirank`; `""` and `/` → `""`. */
export function normalizePrefix(prefix: string): string {
  const trimmed = prefix.trim().replace(/\/+$/, "");
  if (trimmed === "") return "";
  if (!/^(\/[A-Za-z0-9._~-]+)+$/.test(trimmed)) {
    throw new Error(`prefix must be a path such as /unirank, got ${JSON.stringify(prefix)}`);
  }
  return trimmed;
}

const isGuard = (access: UnirankOptions["access"]): access is AccessGuard =>
  typeof access === "object" && typeof (access as AccessGuard).open === "function";

function embeddedContext(options: UnirankOptions): AppContext {
  const cache = options.cache ?? new ResponseCache();
  const { prefix: _prefix, access: accessOption, historyScans, ...settings } = options;
  if (historyScans !== undefined) keepHistories(options.db, historyScans);
  const ctx: AppContext = {
    version: VERSION,
    clock: () => new Date(),
    minFreeDiskGb: 1,
    log: (level, message, fields) => {
      if (level === "error") console.error(JSON.stringify({ level, message, ...fields }));
    },
    hostChecks: {
      // The embedder's host: free space of the working directory; no log files of ours to write.
      freeDiskBytes: async () => {
        const s = statfsSync(".");
        return Number(s.bavail) * Number(s.bsize);
      },
      logsWritable: async () => true,
      cacheEntries: () => (cache ? cache.size : 0),
    },
    ...settings,
    cache,
  };
  if (accessOption === false) return ctx;
  const access = isGuard(accessOption)
    ? accessOption
    : createAccessGuard({ ...accessOption, db: ctx.db, clock: ctx.clock, log: ctx.log });
  return { ...ctx, access };
}

/** The app over an embedder's options, and how to release what it started (the fetch handler and the plugin). */
export function embedded(options: UnirankOptions) {
  const prefix = normalizePrefix(options.prefix ?? "");
  const ctx = embeddedContext(options);
  const app = createApp(ctx, { prefix });
  // A guard the embedder passed in is theirs to close.
  const close = async () => {
    if (ctx.access && !isGuard(options.access)) await ctx.access.close();
  };
  return { app, prefix, close };
}
