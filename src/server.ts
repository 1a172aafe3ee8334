import { existsSync } from "node:fs";
import { setGenerationWindow } from "../lib/db/generation.ts";
import { health, migrate } from "../lib/index.ts";
import { startDeliveryWorker } from "../lib/node/index.ts";
import { accessLog } from "./access-log.ts";
import { answersPerTurn } from "./answers-per-turn.ts";
import type { Config } from "./config.ts";
import { sqliteStorageFault } from "./db/bun-sqlite-dialect.ts";
import {
  accessStatePath,
  checkDatabaseDirectory,
  displayLocation,
  type OpenedDatabase,
  openAccessState,
  openDatabase,
} from "./db/open.ts";
import { postgresStorageFault } from "./db/postgres-storage-fault.ts";
import { StorageHealth } from "./db/storage-health.ts";
import { watchStorage } from "./db/storage-watch.ts";
import { loadDemo } from "./demo.ts";
import { hostChecks } from "./host-checks.ts";
import { createAccessGuard } from "./http/access.ts";
import { createApp, type UnirankApp } from "./http/app.ts";
import { ResponseCache } from "./http/cache.ts";
import { bunConnInfo } from "./http/conn-info.ts";
import type { AppContext } from "./http/context.ts";
import { isLargeAnswer } from "./http/large-answers.ts";
import { observers } from "./http/observer.ts";
import { keepHistories } from "./http/spliced-json/history-table.ts";
import { createViewTokens } from "./http/view-tokens.ts";
import type { LogFunction, Logger } from "./logger.ts";
import { requestPacer, startMemorySteward } from "./memory-steward.ts";
import type { ServerMetrics } from "./metrics.ts";
import type { ScanService, ServeScanSettings } from "./scanner/serve-scanning.ts";
import { VERSION } from "./version.ts";

/**
 * Opens and migrates. A new database is filled with the demo data unless `config.demo` is off: a SQLite file
 * that did not exist yet, or a PostgreSQL database whose schema this very call created (of several servers
 * starting at once, exactly one).
 */
export async function prepareDatabase(config: Config, log: LogFunction): Promise<OpenedDatabase> {
  const isFile = !/^postgres/.test(config.db);
  const newFile = isFile && config.db !== ":memory:" && !existsSync(config.db);
  const opened = await openDatabase(config.db, { readWindowMs: config.dataWindowMs });
  try {
    const { applied } = await migrate(opened.db);
    if (config.demo !== false && (isFile ? newFile : applied.includes("001-core"))) {
      const loaded = await loadDemo(opened.db);
      log("info", "created database with the synthetic demo dataset", {
        db: displayLocation(config.db),
        ...loaded,
      });
    }
  } catch (e) {
    await opened.close();
    throw e;
  }
  return opened;
}

export function appContext(
  config: Config,
  opened: OpenedDatabase,
  log: LogFunction,
  storage?: StorageHealth,
): AppContext {
  const cache = config.cache ? new ResponseCache({ maxEntries: config.cacheEntries }) : false;
  if (config.historyScans !== null) keepHistories(opened.db, config.historyScans);
  return {
    db: opened.db,
    version: VERSION,
    clock: () => new Date(),
    hostChecks: {
      ...hostChecks({
        dbPath: config.db,
        logDir: config.logDir,
        cacheEntries: () => (cache ? cache.size : 0),
      }),
      ...(storage
        ? { storageFault: () => storage.dataFault(), failingWrites: () => storage.failingWrites() }
        : {}),
    },
    minFreeDiskGb: config.minFreeDiskGb,
    cache,
    log,
  };
}

/**
 * Watches the SQLite files the server opened, every second: a data or access-state file deleted, replaced or
 * made unwritable stops the writes through its handle (SQLite `query_only`) and shows in `/health`. Nothing to
 * watch on PostgreSQL or in memory. Returns the stop of the watch.
 */
function watchFiles(
  location: string,
  data: OpenedDatabase,
  state: OpenedDatabase,
  storage: StorageHealth,
): () => void {
  if (data.kind !== "sqlite" || location === ":memory:" || location === "") return () => {};
  const watches = [
    { role: "data", path: location, handle: data },
    { role: "access state", path: accessStatePath(location), handle: state },
  ].map(({ role, path, handle }) =>
    watchStorage(path, (problem) => {
      storage.fileProblem(role, problem);
      handle.stopWrites?.(problem?.message ?? null);
    }),
  );
  const timer = setInterval(() => {
    for (const w of watches) w.check();
  }, STORAGE_CHECK_MS);
  (timer as { unref?: () => void }).unref?.();
  return () => clearInterval(timer);
}

/** How often the files are checked: a replaced or deleted file shows in /health within this (docs/operations.md). */
export const STORAGE_CHECK_MS = 1000;

export interface RunningServer {
  url: string;
  /** `/metrics`, when `--metrics-listen` serves it. */
  metricsUrl: string | null;
  /**
   * Drains: refuses new requests, lets those in flight finish (cut after the shutdown timeout), stops scanning
   * (scans in progress are stored as failed with `reason`) and the webhook worker, flushes the audit log and the
   * log, closes the database. Logs a last line.
   */
  stop(reason?: string): Promise<void>;
  /** Opens the log file again under its name (`SIGHUP`, after logrotate moved it). */
  reopenLogs(): void;
}

const hostInUrl = (host: string) => (host.includes(":") ? `[${host}]` : host);

/**
 * Starts the HTTP server on the configured host and port. The addresses are taken before the database is
 * touched: a port in use or a missing directory fails with no file created.
 */
export async function startServer(
  config: Config,
  options: { quiet?: boolean; scanSettings?: ServeScanSettings } = {},
): Promise<RunningServer> {
  checkDatabaseDirectory(config.db);
  const started = performance.now();
  let app: UnirankApp | null = null;
  let draining = false;
  const ready = Promise.withResolvers<UnirankApp>();
  // Nothing is answered before the app exists; an early request waits for it.
  ready.promise.catch(() => {});
  const released = answersPerTurn(isLargeAnswer);
  // Collections paced to the garbage answers make (src/memory-steward.ts); off with the steward.
  const pace = requestPacer(config.gcHeadroomMb);
  const server = Bun.serve({
    hostname: config.host,
    port: config.port,
    fetch(request, srv) {
      pace();
      const answer = (a: UnirankApp) =>
        draining
          ? a.refuse(request, "The server is shutting down; try again shortly")
          : a.handle(request, bunConnInfo(srv, request));
      return released(app ? answer(app) : ready.promise.then(answer));
    },
  });
  // Loaded on use: pino and prom-client are not part of other commands' start.
  let metrics: ServerMetrics | null = null;
  let metricsServer: { url: string; stop(): void } | null = null;
  let log: Logger;
  try {
    if (config.metricsListen) {
      const { ServerMetrics, serveMetrics } = await import("./metrics.ts");
      metrics = new ServerMetrics();
      metricsServer = serveMetrics(metrics, config.metricsListen);
    }
    const { createLogger } = await import("./logger.ts");
    log = createLogger(config.logDir, { quiet: options.quiet, level: config.logLevel });
  } catch (e) {
    server.stop(true);
    throw e;
  }
  const url = `http://${hostInUrl(config.host)}:${server.port}`;

  let opened: OpenedDatabase;
  let state: OpenedDatabase;
  try {
    setGenerationWindow(config.dataWindowMs);
    opened = await prepareDatabase(config, log);
    const data = opened;
    state = await openAccessState(config.db, data, { checkpointThread: true }).catch(async (e) => {
      await data.close();
      throw e;
    });
  } catch (e) {
    ready.reject(e);
    server.stop(true);
    metricsServer?.stop();
    await log.flush();
    throw e;
  }
  // Once requests in flight are cut at the shutdown deadline, their failures (the database closes under them)
  // are the cut itself, already counted in the stopped line: they are not internal errors.
  let cutting = false;
  const requestLog: LogFunction = (level, message, fields) =>
    cutting && level === "error"
      ? log("debug", "request cut at shutdown", { what: message, path: fields?.path })
      : log(level, message, fields);
  const storage = new StorageHealth(
    requestLog,
    opened.kind === "postgres" ? postgresStorageFault : sqliteStorageFault,
  );
  const stopWatching = watchFiles(config.db, opened, state, storage);
  // Continuous scanning when --scan-every is set (off by default).
  // Loaded only then: the scanner's modules are not part of every start.
  const scanning: ScanService | null =
    config.scanEveryMs > 0
      ? (await import("./scanner/serve-scanning.ts")).startScanning(opened.db, config, {
          log,
          settings: options.scanSettings,
          observe: metrics?.scheduler,
        })
      : null;
  // A server that does not scan still closes the scans of scanning servers that died (their leases expired).
  const leases = scanning
    ? null
    : (await import("./scanner/lease-closer.ts")).closeLeasesEvery(opened.db, log);
  const base = appContext(config, opened, requestLog, storage);
  const ctx: AppContext = {
    ...base,
    ...(scanning ? { scanner: scanning.state } : {}),
    observer: observers([metrics, config.accessLog ? accessLog(log) : null]),
  };
  const access = createAccessGuard({
    storage,
    db: opened.db,
    stateDb: state.db,
    clock: ctx.clock,
    anonymousLimit: config.rateLimit,
    trustProxy: config.trustProxy,
    auditRetentionDays: config.auditRetentionDays,
    log: requestLog,
    viewTokens: createViewTokens({ calls: config.explorerViewCalls, ttlSeconds: config.explorerViewSeconds }),
    explorerViewLimit: config.explorerViews,
  });
  app = createApp({ ...ctx, access });
  ready.resolve(app);
  const stopSteward = startMemorySteward(config.gcHeadroomMb);
  // Webhook deliveries go out in the background (the outbox is filled by whoever writes scans).
  const webhooks = startDeliveryWorker(opened.db, {
    allowPrivate: config.allowPrivateWebhooks,
    timeoutMs: config.webhookTimeoutMs,
    log,
  });
  metrics?.attach({
    db: opened.db,
    version: VERSION,
    cache: base.cache ?? false,
    health: () =>
      health(opened.db, {
        version: VERSION,
        hostChecks: ctx.hostChecks,
        minFreeDiskGb: config.minFreeDiskGb,
        clock: ctx.clock,
        scanner: ctx.scanner,
      }),
    scanner: scanning?.state,
    webhooks: webhooks.summary,
    inFlight: () => server.pendingRequests,
  });
  log("info", "unirank listening", {
    url,
    db: displayLocation(config.db),
    version: VERSION,
    pid: process.pid,
    metrics: metricsServer?.url ?? null,
    access_log: config.accessLog,
    scanning: config.scanEveryMs > 0,
    start_ms: Math.round(performance.now() - started),
  });
  // On disk (and on stderr) before anyone is told the server is up.
  await log.flush();

  let stopping: Promise<void> | null = null;
  const stop = async (reason: string) => {
    draining = true;
    stopWatching();
    const inFlight = server.pendingRequests;
    log("info", "unirank stopping", { reason, in_flight: inFlight, timeout_ms: config.shutdownTimeoutMs });
    // Stops listening at once; resolves when the requests in flight have their answers.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const cut = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(true), config.shutdownTimeoutMs);
    });
    const drained = server.stop(false).then(() => false);
    const [late] = await Promise.all([Promise.race([drained, cut]), scanning?.stop(reason), leases?.stop()]);
    clearTimeout(timer);
    const cutRequests = late ? server.pendingRequests : 0;
    if (late) {
      cutting = true;
      server.stop(true);
    }
    stopSteward();
    await webhooks.stop();
    await access.close();
    metricsServer?.stop();
    await state.close();
    await opened.close();
    log(cutRequests > 0 ? "warn" : "info", "unirank stopped", {
      reason,
      ...(cutRequests > 0 ? { requests_cut: cutRequests } : {}),
    });
    await log.flush();
  };
  return {
    url,
    metricsUrl: metricsServer?.url ?? null,
    stop(reason = "server stopped") {
      stopping ??= stop(reason);
      return stopping;
    },
    reopenLogs: () => log.reopen(),
  };
}
