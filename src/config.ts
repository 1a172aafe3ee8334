import { dirname, join, resolve } from "node:path";
import { parseSources } from "./scanner/sources/index.ts";

export const LOG_LEVELS = ["debug", "info", "warn", "error"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Settings of the server and commands; the only module that reads the environment. */
export interface Config {
  port: number;
  host: string;
  /** SQLite file path or `postgres://` URL (pool settings as URL parameters, see src/db/postgres.ts). */
  db: string;
  /** Anonymous requests per rolling hour per client IP; 0 turns the limit off. */
  rateLimit: number;
  /** CIDRs or addresses of proxies whose `X-Forwarded-For` is believed. */
  trustProxy: string[];
  /** Days audit-log rows are kept; 0 keeps them forever. */
  auditRetentionDays: number;
  logDir: string;
  /** Free disk below this (GB) makes /health degraded. */
  minFreeDiskGb: number;
  /** In-memory response cache on (default) or off. */
  cache: boolean;
  /** Most entries the response cache keeps. */
  cacheEntries: number;
  /** Webhook receivers on loopback, private or link-local addresses are allowed (tests, local setups). */
  allowPrivateWebhooks: boolean;
  /** Timeout of one webhook attempt, milliseconds (default 10 000). */
  webhookTimeoutMs: number;
  /** MB the resident size may grow above its last post-collection size before a full collection; 0 = off. */
  gcHeadroomMb: number;
  /** Most completed scans whose histories the server keeps in memory; 0 = none; null: the default (`keepHistories`). */
  historyScans: number | null;
  /** Rescan interval in ms; 0 (default) = `serve` does not scan. */
  scanEveryMs: number;
  /** Most scans at once in this server (default 4). */
  scanConcurrency: number;
  /** Availability probe interval per university in ms while scanning (default 1 h); 0 = no probes. */
  probeEveryMs: number;
  /** How long a claim holds without renewal before another server may take it over (default 10 min). */
  scanLeaseMs: number;
  /** Resident memory one scan's process may reach, MB (default 512); past it the scan fails. */
  scanMemoryMb: number;

  /** Most ms a write by another process (an import, an operator's `sqlite3`/`psql`) goes unseen; default 1. */
  dataWindowMs: number;

  /** Lines below this level are not logged (default info). */
  logLevel: LogLevel;
  /** One log line per answered request (default off). */
  accessLog: boolean;
  /** Where `/metrics` is served, apart from the API; null (default) = no metrics at all. */
  metricsListen: { host: string; port: number } | null;
  /** On SIGTERM, how long requests in flight may take to finish before they are cut (default 10 s). */
  shutdownTimeoutMs: number;
  /** A new database is filled with the synthetic demo dataset (default); false starts it empty. */
  demo: boolean;
  /** API calls one explorer page view's token admits (default 24). */
  explorerViewCalls: number;
  /** Lifetime of an explorer view token in seconds (default 120). */
  explorerViewSeconds: number;
  /**
   * Explorer page views per rolling hour per client IP, counted apart from other anonymous requests; null
   * (default): a page view counts against the anonymous limit like any request; 0: page views are not limited.
   */
  explorerViews: number | null;
}

/** True inside a `bun build --compile` executable. */
export const isCompiled = import.meta.path.startsWith("/$bunfs/") || /^[A-Z]:\\~BUN\\/.test(import.meta.path);

/** The default database: `unirank.db` beside the executable when compiled, else in the working directory. */
export function defaultDbPath(): string {
  return isCompiled ? join(dirname(process.execPath), "unirank.db") : resolve("unirank.db");
}

export interface ConfigInput {
  port?: string | number;
  host?: string;
  db?: string;
  rateLimit?: string | number;
  trustProxy?: string;
  auditRetentionDays?: string | number;
  logDir?: string;
  minFreeDiskGb?: string | number;
  /** commander's `--no-cache` gives `cache: false`. */
  cache?: boolean;
  cacheEntries?: string | number;
  allowPrivateWebhooks?: boolean;
  /** Seconds, decimals allowed. */
  webhookTimeout?: string | number;
  gcHeadroom?: string | number;
  historyScans?: string | number;
  /** Durations such as `30d`, `12h`, `90m`, `45s`. */
  scanEvery?: string;
  scanConcurrency?: string | number;
  probeEvery?: string;
  scanLease?: string;
  scanMemory?: string | number;

  dataWindow?: string | number;

  logLevel?: string;
  accessLog?: boolean;
  metricsListen?: string;
  shutdownTimeout?: string;
  /** commander's `--no-demo` gives `demo: false`. */
  demo?: boolean;
  explorerViewCalls?: string | number;
  explorerViewSeconds?: string | number;
  explorerViews?: string | number;
}

function integer(
  name: string,
  value: string | number | undefined,
  fallback: number,
  max = 2 ** 31 - 1,
  min = 0,
): number {
  if (value === undefined || value === "") return fallback;
  const text = String(value);
  if (!/^[0-9]+$/.test(text) || Number(text) > max || Number(text) < min)
    throw new Error(`${name} must be an integer from ${min} to ${max}`);
  return Number(text);
}

export function loadConfig(
  cli: ConfigInput = {},
  env: Record<string, string | undefined> = process.env,
): Config {
  const db = withPoolSize(cli.db ?? env.UNIRANK_DB ?? defaultDbPath(), env.UNIRANK_PG_POOL);
  return {
    port: integer("port", cli.port ?? env.PORT, 3000, 65535),
    host: cli.host ?? env.HOST ?? "127.0.0.1",
    db,
    rateLimit: integer("rate limit", cli.rateLimit ?? env.UNIRANK_RATE_LIMIT, 100),
    trustProxy: (cli.trustProxy ?? env.UNIRANK_TRUST_PROXY ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean),
    auditRetentionDays: integer(
      "audit retention days",
      cli.auditRetentionDays ?? env.UNIRANK_AUDIT_RETENTION_DAYS,
      90,
      36_500,
    ),
    logDir:
      cli.logDir ??
      env.UNIRANK_LOG_DIR ??
      (/^postgres/.test(db) ? resolve("logs") : join(dirname(resolve(db)), "logs")),
    minFreeDiskGb: gigabytes(cli.minFreeDiskGb ?? env.UNIRANK_MIN_FREE_DISK_GB),
    ...cacheConfig(cli, env),
    ...webhookConfig(cli, env),
    gcHeadroomMb: integer("gc headroom", cli.gcHeadroom ?? env.UNIRANK_GC_HEADROOM_MB, 32, 65_536),
    historyScans: historyScans(cli.historyScans ?? env.UNIRANK_HISTORY_SCANS),
    ...scanConfig(cli, env),

    dataWindowMs: integer("data window", cli.dataWindow ?? env.UNIRANK_DATA_WINDOW_MS, 1, 60_000),
    ...operationsConfig(cli, env),
    ...explorerConfig(cli, env),
  };
}

/** `--history-scans` / `UNIRANK_HISTORY_SCANS`: null when unset, so that the default has one home. */
const historyScans = (value: string | number | undefined): number | null =>
  value === undefined || value === "" ? null : integer("history scans", value, 0, 1_000_000_000);

const on = (text: string | undefined) => /^(1|true|yes|on)$/i.test(text ?? "");
const off = (text: string | undefined) => /^(0|false|no|off)$/i.test(text ?? "");

/**
 * `--log-level` / `UNIRANK_LOG_LEVEL`, `--access-log` / `UNIRANK_ACCESS_LOG=1`, `--metrics-listen` /
 * `UNIRANK_METRICS_LISTEN`, `--shutdown-timeout` / `UNIRANK_SHUTDOWN_TIMEOUT`, `--no-demo` / `UNIRANK_DEMO=0`.
 */
function operationsConfig(cli: ConfigInput, env: Record<string, string | undefined>) {
  const logLevel = (cli.logLevel ?? env.UNIRANK_LOG_LEVEL ?? "info").trim().toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel))
    throw new Error(`log level must be one of ${LOG_LEVELS.join(", ")}`);
  const listen = cli.metricsListen ?? env.UNIRANK_METRICS_LISTEN ?? "";
  return {
    logLevel: logLevel as LogLevel,
    accessLog: cli.accessLog === true || on(env.UNIRANK_ACCESS_LOG),
    metricsListen: listen.trim() === "" ? null : parseListen("metrics address", listen.trim()),
    shutdownTimeoutMs: parseDuration(
      "shutdown timeout",
      cli.shutdownTimeout ?? (env.UNIRANK_SHUTDOWN_TIMEOUT || "10s"),
    ),
    demo: cli.demo !== false && !off(env.UNIRANK_DEMO),
  };
}

/** `HOST:PORT` (`[::1]:9464` for IPv6; port 0 picks a free one). */
export function parseListen(name: string, text: string): { host: string; port: number } {
  const m = /^(?:\[([0-9A-Fa-f:.]+)\]|([^:\s]+)):([0-9]{1,5})$/.exec(text);
  const port = Number(m?.[3]);
  if (!m || port > 65535) throw new Error(`${name} must be HOST:PORT, e.g. 127.0.0.1:9464 or [::1]:9464`);
  return { host: (m[1] ?? m[2]) as string, port };
}

/**
 * `--explorer-view-calls` / `UNIRANK_EXPLORER_VIEW_CALLS` (1–1000, default 24), `--explorer-view-seconds` /
 * `UNIRANK_EXPLORER_VIEW_SECONDS` (1–3600, default 120), `--explorer-views` / `UNIRANK_EXPLORER_VIEWS` (page
 * views per hour per client IP; unset: they count against the anonymous limit).
 */
function explorerConfig(cli: ConfigInput, env: Record<string, string | undefined>) {
  const explorerViewCalls = integer(
    "explorer view calls",
    cli.explorerViewCalls ?? env.UNIRANK_EXPLORER_VIEW_CALLS,
    24,
    1000,
  );
  const explorerViewSeconds = integer(
    "explorer view seconds",
    cli.explorerViewSeconds ?? env.UNIRANK_EXPLORER_VIEW_SECONDS,
    120,
    3600,
  );
  if (explorerViewCalls < 1) throw new Error("explorer view calls must be an integer from 1 to 1000");
  if (explorerViewSeconds < 1) throw new Error("explorer view seconds must be an integer from 1 to 3600");
  const views = cli.explorerViews ?? env.UNIRANK_EXPLORER_VIEWS;
  const explorerViews = views === undefined || views === "" ? null : integer("explorer views", views, 0);
  return { explorerViewCalls, explorerViewSeconds, explorerViews };
}

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `30d`, `12h`, `90m`, `45s` (or `0`) in milliseconds; at most 365 days. */
export function parseDuration(name: string, text: string): number {
  const m = /^([0-9]{1,6})(s|m|h|d)?$/.exec(text.trim());
  const ms = m ? Number(m[1]) * (UNIT_MS[m[2] ?? "s"] ?? 1000) : Number.NaN;
  if (!m || (ms === 0 && m[1] !== "0") || ms > 365 * UNIT_MS.d!)
    throw new Error(`${name} must be a duration such as 30d, 12h, 90m or 45s (0 = off, at most 365d)`);
  return ms;
}

/**
 * `--scan-every` / `UNIRANK_SCAN_EVERY`, `--scan-concurrency` / `UNIRANK_SCAN_CONCURRENCY`, `--probe-every` /
 * `UNIRANK_PROBE_EVERY`, `--scan-lease` / `UNIRANK_SCAN_LEASE`, `--scan-memory` / `UNIRANK_SCAN_MEMORY`.
 */
function scanConfig(cli: ConfigInput, env: Record<string, string | undefined>) {
  const scanEveryMs = parseDuration("scan interval", cli.scanEvery ?? (env.UNIRANK_SCAN_EVERY || "0"));
  const scanConcurrency = integer(
    "scan concurrency",
    cli.scanConcurrency ?? env.UNIRANK_SCAN_CONCURRENCY,
    4,
    64,
    1,
  );
  const probeEveryMs = parseDuration("probe interval", cli.probeEvery ?? (env.UNIRANK_PROBE_EVERY || "1h"));
  const scanLeaseMs = parseDuration("scan lease", cli.scanLease ?? (env.UNIRANK_SCAN_LEASE || "10m"));
  if (scanLeaseMs < 3000) throw new Error("scan lease must be at least 3s");
  const scanMemoryMb = integer("scan memory", cli.scanMemory ?? env.UNIRANK_SCAN_MEMORY, 512, 65_536);
  if (scanMemoryMb < 64) throw new Error("scan memory must be an integer from 64 to 65536 (MB)");
  return { scanEveryMs, scanConcurrency, probeEveryMs, scanLeaseMs, scanMemoryMb };
}

/** `--allow-private-webhooks` / `UNIRANK_ALLOW_PRIVATE_WEBHOOKS=1`; `--webhook-timeout` / `UNIRANK_WEBHOOK_TIMEOUT` (s). */
function webhookConfig(cli: ConfigInput, env: Record<string, string | undefined>) {
  const allowPrivateWebhooks =
    cli.allowPrivateWebhooks === true || /^(1|true|yes|on)$/i.test(env.UNIRANK_ALLOW_PRIVATE_WEBHOOKS ?? "");
  const timeout = String(cli.webhookTimeout ?? env.UNIRANK_WEBHOOK_TIMEOUT ?? "10");
  const seconds = Number(timeout);
  if (!/^[0-9]+(\.[0-9]+)?$/.test(timeout) || seconds < 0.1 || seconds > 600)
    throw new Error("webhook timeout must be a number of seconds from 0.1 to 600");
  return { allowPrivateWebhooks, webhookTimeoutMs: Math.round(seconds * 1000) };
}

/** `--no-cache` or `UNIRANK_CACHE=0|false|off|no` turns the response cache off; 0 entries does too. */
function cacheConfig(cli: ConfigInput, env: Record<string, string | undefined>) {
  const cacheEntries = integer("cache entries", cli.cacheEntries ?? env.UNIRANK_CACHE_ENTRIES, 1000);
  const off = cli.cache === false || /^(0|false|off|no)$/i.test(env.UNIRANK_CACHE ?? "");
  return { cache: !off && cacheEntries > 0, cacheEntries: Math.max(cacheEntries, 1) };
}

/**
 * `UNIRANK_PG_POOL=N` sets the PostgreSQL connection pool size, as `?pool=N` in the URL does (the URL wins).
 * Folded into the URL so that every command opening the database gets it.
 */
function withPoolSize(db: string, pool: string | undefined): string {
  if (!/^postgres(ql)?:\/\//.test(db) || pool === undefined || pool === "") return db;
  const size = integer("UNIRANK_PG_POOL", pool, 10, 10_000);
  if (size < 1) throw new Error("UNIRANK_PG_POOL must be an integer from 1 to 10000");
  const url = new URL(db);
  if (!url.searchParams.has("pool")) url.searchParams.set("pool", String(size));
  return url.toString();
}

/** The free-disk threshold of /health in GB (default 1); a typo must not silently degrade health forever. */
function gigabytes(value: string | number | undefined): number {
  if (value === undefined || value === "") return 1;
  const text = String(value);
  if (!/^[0-9]{1,12}(\.[0-9]{1,6})?$/.test(text)) {
    throw new Error("minimum free disk must be a number of gigabytes such as 1 or 0.5");
  }
  return Number(text);
}

/** The Chromium the scanner drives: `--chromium PATH`, else `CHROMIUM_PATH`; null when neither is set. */
export function chromiumPath(
  cli?: string,
  env: Record<string, string | undefined> = process.env,
): string | null {
  const path = (cli ?? env.CHROMIUM_PATH ?? "").trim();
  return path === "" ? null : path;
}

export interface SourceFlags {
  sources?: string;
  openalexUrl?: string;
  wikidataUrl?: string;
  greenwebUrl?: string;
}

/**
 * The third-party sources a scan asks (`--sources` / `UNIRANK_SOURCES`, off by default) and their base URLs
 * (`--openalex-url` / `UNIRANK_OPENALEX_URL`, `--wikidata-url` / `UNIRANK_WIKIDATA_URL`, `--greenweb-url` /
 * `UNIRANK_GREENWEB_URL`). Unknown source names throw, naming them.
 */
export function sourceSettings(cli: SourceFlags = {}, env: Record<string, string | undefined> = process.env) {
  return {
    enabled: parseSources(cli.sources ?? env.UNIRANK_SOURCES),
    options: {
      openalex: { baseUrl: cli.openalexUrl ?? env.UNIRANK_OPENALEX_URL },
      wikidata: { baseUrl: cli.wikidataUrl ?? env.UNIRANK_WIKIDATA_URL },
      greenweb: { baseUrl: cli.greenwebUrl ?? env.UNIRANK_GREENWEB_URL },
    },
  };
}
