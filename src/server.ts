import { existsSync } from "node:fs";
import { createViewTokens } from "../lib/access/view-tokens.ts";
import { setGenerationWindow } from "../lib/db/generation.ts";
import { migrate } from "../lib/index.ts";
import { startDeliveryWorker } from "../lib/node/dispatcher.ts";
import pkg from "../package.json" with { type: "json" };
import type { Config } from "./config.ts";
import { displayLocation, type OpenedDatabase, openAccessState, openDatabase } from "./db/open.ts";
import { loadDemo } from "./demo.ts";
import { createAccessGuard } from "./http/access.ts";
import { createApp } from "./http/app.ts";
import { ResponseCache } from "./http/cache.ts";
import type { AppContext } from "./http/context.ts";
import { createLogger, type Logger } from "./logger.ts";
import { startMemorySteward } from "./memory-steward.ts";
import { hostProbes } from "./probes.ts";
import type { ScanService, ServeScanSettings } from "./scanning.ts";

export const VERSION: string = pkg.version;

/**
 * Opens and migrates. A new database is filled with the demo data: a SQLite file that did not exist yet, or a
 * PostgreSQL database whose schema this very call created (of several servers starting at once, exactly one).
 */
export async function prepareDatabase(config: Config, log: Logger): Promise<OpenedDatabase> {
  const isFile = !/^postgres/.test(config.db);
  const newFile = isFile && config.db !== ":memory:" && !existsSync(config.db);
  const opened = await openDatabase(config.db);
  const { applied } = await migrate(opened.db);
  if (isFile ? newFile : applied.includes("001-core")) {
    const loaded = await loadDemo(opened.db);
    log("info", "created database with the synthetic demo dataset", {
      db: displayLocation(config.db),
      ...loaded,
    });
  }
  return opened;
}

export function appContext(config: Config, opened: OpenedDatabase, log: Logger): AppContext {
  const cache = config.cache ? new ResponseCache({ maxEntries: config.cacheEntries }) : false;
  return {
    db: opened.db,
    version: VERSION,
    clock: () => new Date(),
    probes: hostProbes({
      dbPath: config.db,
      logDir: config.logDir,
      cacheEntries: () => (cache ? cache.size : 0),
    }),
    minFreeDiskGb: config.minFreeDiskGb,
    cache,
    log,
  };
}

export interface RunningServer {
  url: string;
  /** Stops scanning (scans in progress are stored as failed with `reason`), then the server. */
  stop(reason?: string): Promise<void>;
}

/** Starts the HTTP server on the configured host and port. */
export async function startServer(
  config: Config,
  options: { quiet?: boolean; scanSettings?: ServeScanSettings } = {},
): Promise<RunningServer> {
  const log = createLogger(config.logDir, options);
  setGenerationWindow(config.dataWindowMs);
  const opened = await prepareDatabase(config, log);
  // Continuous scanning when --scan-every is set (off by default).
  // Loaded only then: the scanner's modules are not part of every start.
  const scanning: ScanService | null =
    config.scanEveryMs > 0
      ? (await import("./scanning.ts")).startScanning(opened.db, config, {
          log,
          settings: options.scanSettings,
        })
      : null;
  const ctx = { ...appContext(config, opened, log), ...(scanning ? { scanner: scanning.state } : {}) };
  const state = await openAccessState(config.db, opened);
  const access = createAccessGuard({
    db: opened.db,
    stateDb: state.db,
    clock: ctx.clock,
    anonymousLimit: config.rateLimit,
    trustProxy: config.trustProxy,
    auditRetentionDays: config.auditRetentionDays,
    log,
    viewTokens: createViewTokens({ calls: config.explorerViewCalls, ttlSeconds: config.explorerViewSeconds }),
    explorerViewLimit: config.explorerViews,
  });
  const app = createApp({ ...ctx, access });
  // The peer address is asked of the server only when a rate limit or the audit log needs it.
  const server = Bun.serve({
    hostname: config.host,
    port: config.port,
    fetch: app.fetch,
  });
  const stopSteward = startMemorySteward(config.gcHeadroomMb);
  const url = `http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${server.port}`;
  log("info", "unirank listening", { url, db: displayLocation(config.db), version: VERSION });
  // Webhook deliveries go out in the background (the outbox is filled by whoever writes scans).
  const webhooks = startDeliveryWorker(opened.db, {
    allowPrivate: config.allowPrivateWebhooks,
    timeoutMs: config.webhookTimeoutMs,
    log,
  });
  return {
    url,
    async stop(reason = "server stopped") {
      await scanning?.stop(reason);
      stopSteward();
      server.stop(true);
      await webhooks.stop();
      await access.close();
      await state.close();
      await opened.close();
    },
  };
}
