/**
 * `unirank/elysia`: unirank's HTTP API for embedders. `unirank(options)` is an Elysia plugin that mounts v1,
 * v2, health and the docs under a prefix of the embedder's app; `createFetchHandler(options)` is the same API
 * as a Web-standard `fetch(Request) → Response` function for any other server. Both run on Node ≥ 20 and Bun
 * over the embedder's own Kysely instance (run `migrate(db)` from `unirank` first).
 *
 * Both are thin adapters over one Web-standard handler (`createApp` in `src/http/app.ts`): the plugin mounts
 * catch-all routes under the prefix that hand the request to it, so the API's cross-cutting rules (OPTIONS, 405,
 * 404 in the API's shapes, request ids) never touch the embedder's routes.
 * Request URLs keep the prefix: docs links, HMAC-signed paths and audit entries are what clients see.
 */
import { statfsSync } from "node:fs";
import { Elysia } from "elysia";
import type { DB } from "../lib/index.ts";
import { version as packageVersion } from "../package.json" with { type: "json" };
import { type AccessGuard, type AccessSettings, createAccessGuard, type PeerSource } from "./http/access.ts";
import { createApp, type RequestInfo } from "./http/app.ts";
import { ResponseCache } from "./http/cache.ts";
import type { AppContext } from "./http/context.ts";

export type { AccessGuard, AccessSettings } from "./http/access.ts";
export { ResponseCache, type ResponseCacheOptions } from "./http/cache.ts";
export type { AppContext } from "./http/context.ts";

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
}

export type { RequestInfo } from "./http/app.ts";

/** A Web-standard handler; `close()` stops access-control timers and flushes the audit log. */
export interface FetchHandler {
  (request: Request, info?: RequestInfo): Promise<Response>;
  close(): Promise<void>;
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
  const { prefix: _prefix, access: accessOption, ...settings } = options;
  const ctx: AppContext = {
    version: packageVersion,
    clock: () => new Date(),
    minFreeDiskGb: 1,
    log: (level, message, fields) => {
      if (level === "error") console.error(JSON.stringify({ level, message, ...fields }));
    },
    probes: {
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

/** The app over the embedder's options, and how to release what it started. */
function embedded(options: UnirankOptions) {
  const prefix = normalizePrefix(options.prefix ?? "");
  const ctx = embeddedContext(options);
  const app = createApp(ctx, { prefix });
  // A guard the embedder passed in is theirs to close.
  const close = async () => {
    if (ctx.access && !isGuard(options.access)) await ctx.access.close();
  };
  return { app, prefix, close };
}

/**
 * The Web-standard handler: answers every request under the prefix (other paths: 404 in the v1 shape).
 * Pass the socket peer as `info.clientIp` where the server knows it (Bun: `server.requestIP(request)`).
 */
export function createFetchHandler(options: UnirankOptions): FetchHandler {
  const { app, close } = embedded(options);
  const handler = (request: Request, info?: RequestInfo): Promise<Response> => app.handle(request, info);
  return Object.assign(handler, { close });
}

/**
 * The Elysia plugin: `app.use(unirank({ db, prefix: "/unirank" }))`. Mounting several under different
 * prefixes works; the app's `stop()` flushes the audit log.
 */
export function unirank(options: UnirankOptions) {
  const { app, prefix, close } = embedded(options);
  const route = ({ request, server }: { request: Request; server: PeerSource | null }) =>
    app.fetch(request, server);
  const plugin = new Elysia({ name: "unirank", seed: prefix }).onStop(close);
  if (prefix === "") return plugin.all("/*", route, { parse: "none" });
  return plugin.all(prefix, route, { parse: "none" }).all(`${prefix}/*`, route, { parse: "none" });
}
