import { type Command, InvalidArgumentError } from "commander";
import type { DB } from "../../lib/index.ts";
import type { Config } from "../config.ts";
import type { OpenedDatabase, SqliteOptions } from "../db/open.ts";
import { parseResolver } from "../scanner/resolver-address.ts";

/**
 * The command kit: what every `unirank` command shares. A command is a file in `src/cli/` exporting its
 * `register(program)` function, and one line in the table (`src/cli/commands.ts`). Its file imports only commander
 * and this kit at the top (so `unirank --help` and `--version` load no server, scanner or database code); its
 * action loads what it runs with `import()`, or through `withDatabase`, which hands it the core.
 */

/** The `--db` option every command that opens a database has. */
export const DB_OPTION_HELP = "SQLite file or postgres:// URL (env UNIRANK_DB; default unirank.db)";

/** Adds `--db <path>` to a command. */
export const withDbOption = (command: Command): Command => command.option("--db <path>", DB_OPTION_HELP);

/** The core (`lib/index.ts`), loaded when a command runs. */
export type Core = typeof import("../../lib/index.ts");

/** What `withDatabase` hands a command: the migrated database, the core, the configuration. */
export interface CommandDatabase {
  db: DB;
  core: Core;
  config: Config;
  opened: OpenedDatabase;
}

/**
 * Opens the database a command names (`--db`, else `UNIRANK_DB`, else `unirank.db`), migrates it (unless
 * `migrate: false`), runs `body`, and closes it whatever happens.
 */
export async function withDatabase<T>(
  opts: Record<string, unknown> & { db?: string },
  body: (database: CommandDatabase) => Promise<T>,
  options: { migrate?: boolean; sqlite?: SqliteOptions } = {},
): Promise<T> {
  const [core, { loadConfig }, { openDatabase }] = await Promise.all([
    import("../../lib/index.ts"),
    import("../config.ts"),
    import("../db/open.ts"),
  ]);
  const config = loadConfig(opts);
  const opened = await openDatabase(config.db, options.sqlite);
  try {
    if (options.migrate !== false) await core.migrate(opened.db);
    return await body({ db: opened.db, core, config, opened });
  } finally {
    await opened.close();
  }
}

/** An integer from 1 to `max`: counts, limits, ids. */
export function positiveInt(name: string, max = 2 ** 31 - 1) {
  return integer(name, 1, max);
}

/** An integer from 0 to `max`, for options where 0 means off or forever (rate limits, retention, delays). */
export function wholeNumber(name: string, max = 2 ** 31 - 1) {
  return integer(name, 0, max);
}

function integer(name: string, min: number, max: number) {
  return (value: string): number => {
    if (!/^[0-9]+$/.test(value) || Number(value) < min || Number(value) > max) {
      throw new InvalidArgumentError(`${name} must be an integer from ${min} to ${max}`);
    }
    return Number(value);
  };
}

/** Seconds from 0.001 to 3600, as milliseconds. */
export function seconds(name: string) {
  return (v: string): number => {
    const n = Number(v);
    if (!/^\d+(\.\d+)?$/.test(v) || n <= 0 || n > 3600)
      throw new InvalidArgumentError(`${name} takes seconds from 0.001 to 3600`);
    return Math.round(n * 1000);
  };
}

/** `HTTP,HTTPS` port numbers (`8080,8443`), for the scanner's URLs without a port. */
export function portsOption(flag: string) {
  return (v: string): { http: number; https: number } => {
    const m = /^(\d+),(\d+)$/.exec(v);
    const http = Number(m?.[1]);
    const https = Number(m?.[2]);
    if (!m || http < 1 || http > 65535 || https < 1 || https > 65535)
      throw new InvalidArgumentError(`${flag} takes HTTP,HTTPS port numbers, e.g. 8080,8443`);
    return { http, https };
  };
}

/** A DNS resolver as `host:port` (`[v6]:port`), for the scanner's lookups. */
export function resolverOption(v: string) {
  try {
    return parseResolver(v);
  } catch (e) {
    throw new InvalidArgumentError((e as Error).message);
  }
}

/** Writes a line to standard output. */
export const out = (line: string): void => {
  process.stdout.write(`${line}\n`);
};

/** Rows as a plain text table, columns padded to their widest cell. */
export function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length))) ?? [];
  return rows
    .map((r) =>
      r
        .map((c, i) => c.padEnd(widths[i] ?? 0))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}
