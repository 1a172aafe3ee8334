import { dirname, join, resolve } from "node:path";

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
  /** Most ms a write by another process (an import, an operator's `sqlite3`/`psql`) goes unseen; default 1. */
  dataWindowMs: number;
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
  dataWindow?: string | number;
}

function integer(
  name: string,
  value: string | number | undefined,
  fallback: number,
  max = 2 ** 31 - 1,
): number {
  if (value === undefined || value === "") return fallback;
  const text = String(value);
  if (!/^[0-9]+$/.test(text) || Number(text) > max)
    throw new Error(`${name} must be an integer from 0 to ${max}`);
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
    dataWindowMs: integer("data window", cli.dataWindow ?? env.UNIRANK_DATA_WINDOW_MS, 1, 60_000),
  };
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
