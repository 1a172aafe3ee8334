import { existsSync } from "node:fs";
import { migrate } from "../lib/index.ts";
import pkg from "../package.json" with { type: "json" };
import type { Config } from "./config.ts";
import { type OpenedDatabase, openDatabase } from "./db/open.ts";
import { loadDemo } from "./demo.ts";
import { createApp } from "./http/app.ts";
import type { AppContext } from "./http/context.ts";
import { createLogger, type Logger } from "./logger.ts";
import { hostProbes } from "./probes.ts";

export const VERSION: string = pkg.version;

/** Opens (and, for a SQLite file that does not exist yet, creates with the demo data) and migrates. */
export async function prepareDatabase(config: Config, log: Logger): Promise<OpenedDatabase> {
  const isFile = !/^postgres/.test(config.db);
  const fresh = isFile && config.db !== ":memory:" && !existsSync(config.db);
  const opened = await openDatabase(config.db);
  await migrate(opened.db);
  if (fresh) {
    const loaded = await loadDemo(opened.db);
    log("info", "created database with the synthetic demo dataset", { db: config.db, ...loaded });
  }
  return opened;
}

export function appContext(config: Config, opened: OpenedDatabase, log: Logger): AppContext {
  return {
    db: opened.db,
    version: VERSION,
    clock: () => new Date(),
    probes: hostProbes({ dbPath: config.db, logDir: config.logDir }),
    minFreeDiskGb: config.minFreeDiskGb,
    log,
  };
}

export interface RunningServer {
  url: string;
  stop(): Promise<void>;
}

/** Starts the HTTP server on the configured host and port. */
export async function startServer(config: Config, options: { quiet?: boolean } = {}): Promise<RunningServer> {
  const log = createLogger(config.logDir, options);
  const opened = await prepareDatabase(config, log);
  const app = createApp(appContext(config, opened, log));
  const server = Bun.serve({ hostname: config.host, port: config.port, fetch: app.fetch });
  const url = `http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${server.port}`;
  log("info", "unirank listening", { url, db: config.db, version: VERSION });
  return {
    url,
    async stop() {
      server.stop(true);
      await opened.close();
    },
  };
}
