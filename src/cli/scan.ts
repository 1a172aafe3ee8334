import { readFileSync } from "node:fs";
import type cliProgress from "cli-progress";
import { type Command, InvalidArgumentError } from "commander";
import type { ScanOutcome, ScanTarget } from "../../lib/scanner/index.ts";
import { SCANNER_DEFAULTS } from "../scanner/scanner-defaults.ts";
import { refuseDemoMix, WITH_DEMO_OPTION } from "./demo.ts";
import {
  DB_OPTION_HELP,
  portsOption,
  positiveInt,
  resolverOption,
  seconds,
  wholeNumber,
  withDatabase,
} from "./kit.ts";
import { MEASUREMENT_OPTIONS } from "./measurement-options.ts";
import { registerScanStatus } from "./scan-status.ts";

/** Exit code when the run finished but some scans failed. */
export const EXIT_SCANS_FAILED = 3;

/** `30d`, `12h`, `90m` or a number of days → days. */
export function parseAge(text: string): number {
  const m = /^(\d+(?:\.\d+)?)([dhm]?)$/.exec(text.trim());
  if (!m) throw new InvalidArgumentError("--stale takes an age such as 30d, 12h or 90m");
  const n = Number(m[1]);
  return m[2] === "h" ? n / 24 : m[2] === "m" ? n / 1440 : n;
}

function reporter(total: number, tty: boolean, bars: typeof cliProgress) {
  if (tty) {
    const bar = new bars.SingleBar(
      {
        format: "scan |{bar}| {value}/{total} | {completed} completed | {failed} failed | {domain}",
        stream: process.stderr,
        hideCursor: true,
        clearOnComplete: true,
      },
      bars.Presets.shades_classic,
    );
    bar.start(total, 0, { completed: 0, failed: 0, domain: "" });
    let completed = 0;
    let failed = 0;
    return {
      scanned(t: ScanTarget, o: ScanOutcome) {
        if (o.status === "completed") completed++;
        else failed++;
        bar.increment({ completed, failed, domain: t.domain });
      },
      stop: () => bar.stop(),
    };
  }
  return {
    scanned(t: ScanTarget, o: ScanOutcome) {
      process.stderr.write(
        o.status === "completed"
          ? `completed ${t.domain} overall ${o.scores.overall_score ?? "null"}\n`
          : `failed ${t.domain}: ${o.failure_reason}\n`,
      );
    },
    stop() {},
  };
}

/** `unirank scan`, with its `status` subcommand. */
export function registerScan(program: Command): void {
  const scan = program
    .command("scan")
    .description("measure universities' own sites and DNS and write the scans (rubrics in docs/scanner.md)")
    .argument("[domains...]", "stored universities to scan")
    .option("--all", "every stored university")
    .option("--stale <age>", "only universities whose latest scan is older (30d, 12h) or missing", parseAge)
    .option("--country <XX>", "only universities of this country (ISO 3166-1 alpha-2)")
    .option("--limit <n>", "at most this many universities", positiveInt("--limit"))
    .option("--concurrency <n>", "scans at once (default 8)", positiveInt("--concurrency", 256))
    .option("--db <path>", DB_OPTION_HELP)
    .option(...WITH_DEMO_OPTION)
    .option(
      "--resolver <host:port>",
      "DNS resolver for every lookup (default: the system's first)",
      resolverOption,
    )
    .option("--contact <url>", "contact URL or e-mail named in the User-Agent")
    .option("--ca-file <path>", "extra trusted CA certificates (PEM) for the certificate check")
    .option("--allow-private-targets", "scan sites on loopback and private addresses (tests, intranets)")
    .option(
      "--max-pages <n>",
      `pages crawled per university (default ${SCANNER_DEFAULTS.maxPages})`,
      positiveInt("--max-pages", 1000),
    )
    .option("--timeout <seconds>", "per-request timeout (default 10)", seconds("--timeout"))
    .option("--scan-timeout <seconds>", "per-scan timeout (default 120)", seconds("--scan-timeout"))
    .option("--max-bytes <n>", "byte cap per response (default 5242880)", positiveInt("--max-bytes"))
    .option(
      "--delay <ms>",
      "pause between two requests to one host (default 200)",
      wholeNumber("--delay", 60_000),
    )
    .option(
      "--ports <http,https>",
      "ports for URLs without one (default 80,443; for fixtures)",
      portsOption("--ports"),
    )
    .option(
      "--memory <mb>",
      "resident memory one scan's process may reach before the scan fails (env UNIRANK_SCAN_MEMORY; default 512)",
    );
  for (const [flags, description, parse] of MEASUREMENT_OPTIONS) {
    if (parse) scan.option(flags, description, parse(flags.split(" ")[0] ?? flags));
    else scan.option(flags, description);
  }
  scan.action(async (domains: string[], opts) => {
    if (domains.length === 0 && !opts.all && opts.stale === undefined && !opts.country)
      throw new Error("name domains to scan, or use --all, --stale or --country");
    if (opts.country && !/^[A-Za-z]{2}$/.test(opts.country))
      throw new Error("--country takes a two-letter code");
    const ca = opts.caFile ? [readFileSync(opts.caFile, "utf8")] : undefined;
    // Loaded on use: other commands, and `--help`, start without the scanner's modules.
    const [{ default: bars }, { runScans }, { ScanProcesses }] = await Promise.all([
      import("cli-progress"),
      import("../scanner/run-scans.ts"),
      import("../scanner/scan-processes.ts"),
    ]);
    await withDatabase({ ...opts, scanMemory: opts.memory }, async ({ db, core, config }) => {
      const abort = new AbortController();
      const onSignal = () => abort.abort("interrupted");
      process.on("SIGINT", onSignal);
      process.on("SIGTERM", onSignal);
      let processes: { close(): Promise<void> } | undefined;
      try {
        await refuseDemoMix(db, config.db, opts.withDemo);
        // Scans left running by scanning servers that stopped without storing them are closed first (as failed).
        await core.closeExpiredLeases(db);
        const targets = await core.scanTargets(db, {
          domains: domains.length > 0 ? domains : undefined,
          staleDays: opts.stale,
          country: opts.country,
          limit: opts.limit,
        });
        if (targets.length === 0) {
          process.stdout.write("nothing to scan\n");
          return;
        }
        const concurrency = opts.concurrency ?? 8;
        // Each scan runs in a scan process of its own, as in `serve`; the outcomes are stored here.
        const pool = new ScanProcesses({
          size: Math.min(concurrency, targets.length),
          memoryMb: config.scanMemoryMb,
          settings: {
            resolver: opts.resolver,
            contact: opts.contact,
            ca,
            allowPrivateTargets: Boolean(opts.allowPrivateTargets),
            maxPages: opts.maxPages,
            requestTimeoutMs: opts.timeout,
            scanTimeoutMs: opts.scanTimeout,
            maxBytes: opts.maxBytes,
            delayMs: opts.delay,
            ports: opts.ports,
            chromium: opts.chromium,
            browserConcurrency: opts.browserConcurrency,
            sources: opts.sources,
            openalexUrl: opts.openalexUrl,
            wikidataUrl: opts.wikidataUrl,
            greenwebUrl: opts.greenwebUrl,
          },
        });
        processes = pool;
        const progress = reporter(targets.length, Boolean(process.stderr.isTTY), bars);
        const failures: string[] = [];
        const summary = await runScans(db, targets, {
          scan: pool.scan,
          concurrency,
          signal: abort.signal,
          onScan(t, o) {
            progress.scanned(t, o);
            if (o.status === "failed") failures.push(`  ${t.domain}: ${o.failure_reason}`);
          },
        }).finally(() => progress.stop());
        const rate = (summary.completed + summary.failed) / Math.max(summary.seconds, 0.001);
        process.stdout.write(
          `scanned ${summary.completed + summary.failed} of ${targets.length} universities in ${summary.seconds.toFixed(1)} s (${rate.toFixed(1)} scans/s): ${summary.completed} completed, ${summary.failed} failed${summary.skipped ? `, ${summary.skipped} not started` : ""}\n`,
        );
        if (failures.length > 0) process.stdout.write(`failed:\n${failures.join("\n")}\n`);
        if (abort.signal.aborted) process.exitCode = 130;
        else if (summary.failed > 0) process.exitCode = EXIT_SCANS_FAILED;
      } finally {
        await processes?.close();
        process.off("SIGINT", onSignal);
        process.off("SIGTERM", onSignal);
      }
    });
  });
  registerScanStatus(scan);
}
