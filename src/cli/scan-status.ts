import type { Command } from "commander";
import { DB_OPTION_HELP, out, positiveInt, withDatabase } from "./kit.ts";

const DAY = 86_400_000;

/**
 * `unirank scan status`: the scheduler's state as the database holds it, for every server sharing it. A
 * subcommand of `scan`, registered by it.
 */
export function registerScanStatus(scan: Command): void {
  scan
    .command("status")
    .description("due, running, completed and failed in the last period, the next due, the last failures")
    .option("--scan-every <duration>", "the scan interval, which is also the period counted (default 30d)")
    .option("--failures <n>", "last failures listed (default 10)", positiveInt("--failures", 1000))
    .option("--json", "print the report as JSON")
    .option("--db <path>", DB_OPTION_HELP)
    .action(async (opts: { scanEvery?: string; failures?: number; json?: boolean; db?: string }) => {
      // `scan` has a --db of its own, which commander gives the parent when both could take it.
      const db = opts.db ?? (scan.opts() as { db?: string }).db;
      const [{ parseDuration }, { displayLocation }] = await Promise.all([
        import("../config.ts"),
        import("../db/open.ts"),
      ]);
      await withDatabase({ db, scanEvery: opts.scanEvery }, async ({ db: database, core, config }) => {
        const everyMs = config.scanEveryMs || parseDuration("scan interval", "30d");
        // Scans left running by servers that stopped without storing them are closed first (as failed).
        await core.closeExpiredLeases(database);
        const report = await core.scanStatus(database, {
          now: new Date(),
          everyMs,
          retryMs: Math.min(everyMs, DAY),
          failures: opts.failures,
        });
        if (opts.json) {
          out(JSON.stringify(report, null, 2));
          return;
        }
        const lines = [
          `scans of ${displayLocation(config.db)} since ${report.since}:`,
          `  due        ${report.due}`,
          `  running    ${report.running.length}`,
          `  completed  ${report.completed}`,
          `  failed     ${report.failed}`,
          `  next due   ${report.next_due ?? "never (no universities)"}`,
          ...report.running.map((r) => `  running: ${r.domain} on ${r.owner} since ${r.started_at}`),
          ...(report.last_failures.length ? ["last failures:"] : []),
          ...report.last_failures.map((f) => `  ${f.at}  ${f.domain}: ${f.reason ?? "failed"}`),
        ];
        out(lines.join("\n"));
      });
    });
}
