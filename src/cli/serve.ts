import { readFileSync } from "node:fs";
import type { Command } from "commander";
import { DB_OPTION_HELP, portsOption, positiveInt, resolverOption, wholeNumber } from "./kit.ts";
import { MEASUREMENT_OPTIONS } from "./measurement-options.ts";

/** `unirank serve`: the API, its docs and the explorer; with `--scan-every`, continuous scanning too. */
export function registerServe(program: Command): void {
  const serve = program
    .command("serve")
    .description(
      "serve v1, v2, /health, the docs and the explorer; a new database is filled with the demo dataset unless --no-demo",
    )
    .option("--port <n>", "port, 0 = any free one (env PORT; default 3000)", wholeNumber("port", 65535))
    .option("--host <addr>", "address to listen on (env HOST; default 127.0.0.1)")
    .option("--db <path>", DB_OPTION_HELP)
    .option(
      "--rate-limit <n>",
      "anonymous requests per hour per IP, 0 = off (env UNIRANK_RATE_LIMIT; default 100)",
      wholeNumber("rate limit"),
    )
    .option(
      "--explorer-views <n>",
      "explorer page views per hour per IP, counted apart from other requests, 0 = no limit (env UNIRANK_EXPLORER_VIEWS; default: they count against --rate-limit)",
      positiveInt("explorer views"),
    )
    .option(
      "--explorer-view-calls <n>",
      "API calls one explorer page view may make without counting (env UNIRANK_EXPLORER_VIEW_CALLS; default 24)",
      positiveInt("explorer view calls", 1000),
    )
    .option(
      "--explorer-view-seconds <n>",
      "seconds an explorer page view's calls are admitted (env UNIRANK_EXPLORER_VIEW_SECONDS; default 120)",
      positiveInt("explorer view seconds", 3600),
    )
    .option(
      "--trust-proxy <cidrs>",
      "comma-separated proxies whose X-Forwarded-For is believed (env UNIRANK_TRUST_PROXY)",
    )
    .option("--no-demo", "start a new database empty instead of with the synthetic demo (env UNIRANK_DEMO=0)")
    .option("--log-dir <dir>", "log directory (env UNIRANK_LOG_DIR; default logs/ beside the database)")
    .option("--log-level <level>", "debug, info, warn or error (env UNIRANK_LOG_LEVEL; default info)")
    .option("--access-log", "log one line per request (env UNIRANK_ACCESS_LOG=1)")
    .option(
      "--metrics-listen <host:port>",
      "serve Prometheus metrics at /metrics on this address, apart from the API (env UNIRANK_METRICS_LISTEN; default off)",
    )
    .option(
      "--shutdown-timeout <duration>",
      "on SIGTERM, how long requests in flight may take to finish (env UNIRANK_SHUTDOWN_TIMEOUT; default 10s)",
    )
    .option(
      "--audit-retention-days <n>",
      "days audit-log rows are kept, 0 = forever (env UNIRANK_AUDIT_RETENTION_DAYS; default 90)",
      wholeNumber("audit retention days", 36_500),
    )
    .option(
      "--min-free-disk-gb <n>",
      "free disk below this makes /health degraded (env UNIRANK_MIN_FREE_DISK_GB; default 1)",
    )
    .option("--no-cache", "turn the in-memory response cache off (env UNIRANK_CACHE=0)")
    .option(
      "--cache-entries <n>",
      "most responses the cache keeps (env UNIRANK_CACHE_ENTRIES; default 1000)",
      positiveInt("cache entries"),
    )
    .option(
      "--allow-private-webhooks",
      "allow webhook receivers on loopback, private, link-local or metadata addresses (env UNIRANK_ALLOW_PRIVATE_WEBHOOKS=1)",
    )
    .option(
      "--webhook-timeout <seconds>",
      "timeout of one webhook attempt (env UNIRANK_WEBHOOK_TIMEOUT; default 10)",
    )
    .option(
      "--data-window <ms>",
      "most ms a write by another process or raw SQL goes unseen (env UNIRANK_DATA_WINDOW_MS; default 1)",
    )
    .option(
      "--gc-headroom <mb>",
      "MB the resident size may grow past its last post-collection size before a full collection; 0 = off, and no collections paced to the load (env UNIRANK_GC_HEADROOM_MB; default 32)",
      wholeNumber("gc headroom", 65_536),
    )
    .option(
      "--history-scans <n>",
      "most completed scans whose histories are kept in memory, about 18 bytes each; past it, histories are read from the database, 0 = always (env UNIRANK_HISTORY_SCANS; default 2000000)",
      wholeNumber("history scans", 1_000_000_000),
    )
    .option(
      "--scan-every <duration>",
      "scan in the background: rescan each university this often, e.g. 30d (env UNIRANK_SCAN_EVERY; default off)",
    )
    .option(
      "--scan-concurrency <n>",
      "most scans at once in this server (env UNIRANK_SCAN_CONCURRENCY; default 4)",
    )
    .option(
      "--probe-every <duration>",
      "availability probe of each home page this often while scanning, 0 = off (env UNIRANK_PROBE_EVERY; default 1h)",
    )
    .option(
      "--scan-lease <duration>",
      "a claim not renewed for this long (its server died) is closed as failed (env UNIRANK_SCAN_LEASE; default 10m)",
    )
    .option(
      "--scan-resolver <host:port>",
      "DNS resolver of the scans (default: the system's first)",
      resolverOption,
    )
    .option("--scan-contact <url>", "contact URL or e-mail named in the scans' User-Agent")
    .option("--scan-ca-file <path>", "extra trusted CA certificates (PEM) for the scans' certificate check")
    .option("--scan-allow-private-targets", "scan sites on loopback and private addresses (tests, intranets)")
    .option(
      "--scan-memory <mb>",
      "resident memory one scan's process may reach before the scan fails (env UNIRANK_SCAN_MEMORY; default 512)",
    )
    .option(
      "--scan-ports <http,https>",
      "ports the scans use for URLs without one (default 80,443)",
      portsOption("--scan-ports"),
    );
  for (const [flags, description, parse] of MEASUREMENT_OPTIONS) {
    const own = flags.replace(/^--/, "--scan-");
    const text = `${description}; for the background scans`;
    if (parse) serve.option(own, text, parse(own.split(" ")[0] ?? own));
    else serve.option(own, text);
  }
  serve.action(async (opts) => {
    const [{ loadConfig }, { startServer }] = await Promise.all([
      import("../config.ts"),
      import("../server.ts"),
    ]);
    const config = loadConfig(opts);
    // The signals are heard from the start: a SIGTERM while the server still starts stops it once it has.
    const starting = startServer(config, {
      // Data only: the scan processes make the browser and source parts from these flags.
      scanSettings: {
        resolver: opts.scanResolver,
        contact: opts.scanContact,
        ca: opts.scanCaFile ? [readFileSync(opts.scanCaFile, "utf8")] : undefined,
        allowPrivateTargets: Boolean(opts.scanAllowPrivateTargets),
        ports: opts.scanPorts,
        chromium: opts.scanChromium,
        browserConcurrency: opts.scanBrowserConcurrency,
        sources: opts.scanSources,
        openalexUrl: opts.scanOpenalexUrl,
        wikidataUrl: opts.scanWikidataUrl,
        greenwebUrl: opts.scanGreenwebUrl,
      },
    });
    let stopping = false;
    const stop = (signal: string) => async () => {
      if (stopping) return;
      stopping = true;
      const server = await starting;
      await server.stop(`server stopped (${signal})`);
      process.exit(0);
    };
    process.on("SIGINT", stop("SIGINT"));
    process.on("SIGTERM", stop("SIGTERM"));
    const server = await starting;
    // logrotate's postrotate (docs/operations.md): write on into a new file under the log's name.
    process.on("SIGHUP", () => server.reopenLogs());
  });
}
