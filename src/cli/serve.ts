import type { Command } from "commander";
import { loadConfig } from "../config.ts";
import { startServer } from "../server.ts";
import { DB_OPTION_HELP, positiveInt } from "./options.ts";

export function registerServe(program: Command): void {
  program
    .command("serve")
    .description("serve v1, v2, /health and the docs; a new SQLite file is filled with the demo dataset")
    .option("--port <n>", "port (env PORT; default 3000)", positiveInt("port", 65535))
    .option("--host <addr>", "address to listen on (env HOST; default 127.0.0.1)")
    .option("--db <path>", DB_OPTION_HELP)
    .option(
      "--rate-limit <n>",
      "anonymous requests per hour per IP, 0 = off (env UNIRANK_RATE_LIMIT; default 100)",
      positiveInt("rate limit"),
    )
    .option(
      "--trust-proxy <cidrs>",
      "comma-separated proxies whose X-Forwarded-For is believed (env UNIRANK_TRUST_PROXY)",
    )
    .option("--log-dir <dir>", "log directory (env UNIRANK_LOG_DIR; default logs/ beside the database)")
    .option(
      "--audit-retention-days <n>",
      "days audit-log rows are kept, 0 = forever (env UNIRANK_AUDIT_RETENTION_DAYS; default 90)",
      positiveInt("audit retention days", 36_500),
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
      "MB the resident size may grow past its last post-collection size before a full collection, 0 = off (env UNIRANK_GC_HEADROOM_MB; default 32)",
      positiveInt("gc headroom", 65_536),
    )
    .action(async (opts) => {
      const config = loadConfig(opts);
      const server = await startServer(config);
      const stop = async () => {
        await server.stop();
        process.exit(0);
      };
      process.on("SIGINT", stop);
      process.on("SIGTERM", stop);
    });
}
