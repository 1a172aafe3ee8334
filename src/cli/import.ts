import { statSync } from "node:fs";
import type cliProgress from "cli-progress";
import type { Command } from "commander";
import type { ImportProgress, ImportResult } from "../../lib/index.ts";
import { DB_OPTION_HELP, withDatabase } from "./kit.ts";

const n = (x: number) => x.toLocaleString("en-US");
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** Shows progress: a bar on a terminal, a plain line every few seconds otherwise (both on stderr). */
function progressReporter(paths: string[], tty: boolean, bars: typeof cliProgress) {
  const sizes = paths.map((p) => statSync(p).size);
  const total = sizes.reduce((a, b) => a + b, 0);
  const before = (i: number) => sizes.slice(0, i).reduce((a, b) => a + b, 0);
  const t0 = performance.now();
  if (tty) {
    const bar = new bars.SingleBar(
      {
        format:
          "import |{bar}| {percentage}% | {done} of {size} | {records} records | {rate} rows/s | {rejected} rejected",
        stream: process.stderr,
        hideCursor: true,
        clearOnComplete: true,
      },
      bars.Presets.shades_classic,
    );
    bar.start(Math.max(total, 1), 0, { done: mb(0), size: mb(total), records: 0, rate: 0, rejected: 0 });
    return {
      update(p: ImportProgress) {
        const value = before(p.sourceIndex) + p.bytes;
        const seconds = (performance.now() - t0) / 1000;
        bar.update(value, {
          done: mb(value),
          size: mb(total),
          records: n(p.records),
          rate: n(Math.round(p.records / Math.max(seconds, 0.001))),
          rejected: n(p.rejected),
        });
      },
      stop: () => bar.stop(),
    };
  }
  let last = 0;
  return {
    update(p: ImportProgress) {
      const now = performance.now();
      if (now - last < 2000) return;
      last = now;
      const value = before(p.sourceIndex) + p.bytes;
      const pct = total > 0 ? Math.floor((100 * value) / total) : 100;
      const rate = Math.round(p.records / Math.max((now - t0) / 1000, 0.001));
      process.stderr.write(
        `import: ${pct}% (${mb(value)} of ${mb(total)}), ${n(p.records)} records, ${n(rate)} rows/s, ${n(p.rejected)} rejected\n`,
      );
    },
    stop() {},
  };
}

/** The closing summary. */
export function formatSummary(r: ImportResult, files: number): string {
  const c = (x: { inserted: number; updated: number; unchanged: number }) =>
    `${n(x.inserted)} inserted, ${n(x.updated)} updated, ${n(x.unchanged)} unchanged`;
  return [
    `${r.committed ? "imported" : "nothing imported"}: ${n(r.records)} records from ${files} file${files === 1 ? "" : "s"} in ${r.seconds.toFixed(1)} s (${n(r.rowsPerSecond)} rows/s)`,
    `  universities: ${c(r.universities)}`,
    `  scans:        ${c(r.scans)}`,
    `  rejected:     ${n(r.rejected)}`,
    `  webhook deliveries recorded: ${n(r.deliveries)}`,
  ].join("\n");
}

/** `unirank import`: NDJSON or CSV files into the database, in one transaction. */
export function registerImport(program: Command): void {
  program
    .command("import")
    .description(
      "load universities and scans from NDJSON or CSV files (format in docs/import.md) in one transaction; idempotent",
    )
    .argument("<files...>", "NDJSON (.ndjson, .jsonl) or CSV (.csv) files, optionally .gz")
    .option("--db <path>", DB_OPTION_HELP)
    .option("--no-events", "do not record scan.completed webhook deliveries for the imported scans")
    .option(
      "--skip-invalid",
      "import the valid records and list the invalid ones (default: any invalid record aborts)",
    )
    .option("--format <format>", "ndjson or csv for every file (default: by extension)")
    .action(async (files: string[], opts) => {
      if (opts.format && opts.format !== "ndjson" && opts.format !== "csv") {
        throw new Error("--format must be ndjson or csv");
      }
      for (const f of files) statSync(f); // a missing file fails before anything is opened
      const [{ default: bars }, { fileSource }, { startMemorySteward }, { ImportAbortedError, formatIssue }] =
        await Promise.all([
          import("cli-progress"),
          import("../../lib/node/index.ts"),
          import("../memory-steward.ts"),
          import("../../lib/index.ts"),
        ]);
      const abort = new AbortController();
      const onSignal = () => abort.abort();
      process.on("SIGINT", onSignal);
      process.on("SIGTERM", onSignal);
      const progress = progressReporter(files, Boolean(process.stderr.isTTY), bars);
      let result: ImportResult;
      try {
        result = await withDatabase(
          opts,
          async ({ db, core, config }) => {
            // The import makes garbage fast (a record a few microseconds): peak RSS 290–318 → 237–266 MB with the
            // steward; with its pacer (and the final refresh letting it run), 253–266 MB (docs/performance.md).
            const stopSteward = startMemorySteward(config.gcHeadroomMb, { paced: true });
            try {
              return await core.importRecords(
                db,
                files.map((f) => fileSource(f, { format: opts.format })),
                {
                  events: opts.events !== false,
                  skipInvalid: Boolean(opts.skipInvalid),
                  signal: abort.signal,
                  onProgress: (p) => progress.update(p),
                },
              );
            } finally {
              stopSteward();
            }
          },
          // 32 MB of SQLite page cache: a 1,000,000-scan import 44 → 31 s, peak RSS 244 → 281 MB; statement
          // journals in memory: 30 → 25–27 s (docs/performance.md).
          { sqlite: { cacheMb: 32, tempStore: "memory" } },
        );
      } catch (e) {
        progress.stop();
        if (e instanceof ImportAbortedError) {
          process.stderr.write("unirank import: interrupted; nothing was written\n");
          process.exitCode = 130;
          return;
        }
        throw e;
      } finally {
        progress.stop();
        process.off("SIGINT", onSignal);
        process.off("SIGTERM", onSignal);
      }
      for (const issue of result.issues) process.stderr.write(`${formatIssue(issue)}\n`);
      if (result.issuesOmitted > 0)
        process.stderr.write(`... and ${n(result.issuesOmitted)} more problems\n`);
      process.stdout.write(`${formatSummary(result, files.length)}\n`);
      if (result.unreadable) {
        process.stderr.write(
          `unirank import: ${result.unreadable.source} cannot be read to its end; nothing was written, --skip-invalid or not (what was read before the failure cannot be trusted)\n`,
        );
        process.exitCode = 1;
      } else if (!result.committed) {
        process.stderr.write(
          `unirank import: ${n(result.rejected)} invalid record${result.rejected === 1 ? "" : "s"}; nothing was written (--skip-invalid imports the valid ones)\n`,
        );
        process.exitCode = 1;
      }
    });
}
