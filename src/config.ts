import { dirname, join, resolve } from "node:path";

/** Settings of the server and commands; the only module that reads the environment. */
export interface Config {
  port: number;
  host: string;
  /** SQLite file path or `postgres://` URL. */
  db: string;
  /** Anonymous requests per rolling hour per client IP; 0 turns the limit off. */
  rateLimit: number;
  /** CIDRs or addresses of proxies whose `X-Forwarded-For` is believed. */
  trustProxy: string[];
  logDir: string;
  /** Free disk below this (GB) makes /health degraded. */
  minFreeDiskGb: number;
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
  logDir?: string;
  minFreeDiskGb?: string | number;
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
  const db = cli.db ?? env.UNIRANK_DB ?? defaultDbPath();
  return {
    port: integer("port", cli.port ?? env.PORT, 3000, 65535),
    host: cli.host ?? env.HOST ?? "127.0.0.1",
    db,
    rateLimit: integer("rate limit", cli.rateLimit ?? env.UNIRANK_RATE_LIMIT, 100),
    trustProxy: (cli.trustProxy ?? env.UNIRANK_TRUST_PROXY ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean),
    logDir:
      cli.logDir ??
      env.UNIRANK_LOG_DIR ??
      (/^postgres/.test(db) ? resolve("logs") : join(dirname(resolve(db)), "logs")),
    minFreeDiskGb: Number(cli.minFreeDiskGb ?? env.UNIRANK_MIN_FREE_DISK_GB ?? 1),
  };
}
