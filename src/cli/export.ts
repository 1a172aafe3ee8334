import { rmSync } from "node:fs";
import type { Command } from "commander";
import type { ExportSelection } from "../../lib/index.ts";
import { EXPORT_FORMATS, type ExportFormat, formatOfPath } from "../export/formats.ts";
import { partialName, STDOUT } from "../export/output.ts";
import type { ExportCounts } from "../export/stream-format.ts";
import { parseSince } from "./audit.ts";
import { withDatabase, withDbOption } from "./kit.ts";

const n = (x: number) => x.toLocaleString("en-US");
const count = (x: number, what: string) => `${n(x)} ${what}${x === 1 ? "" : "s"}`;

/** What an export wrote, in the words of its format. */
function written(format: ExportFormat, c: ExportCounts): string {
  if (format === "csv") return count(c.universities, "university").replace("universitys", "universities");
  if (format === "scans-csv" || format === "parquet") return count(c.scans, "scan");
  if (format === "checks-csv") return `${count(c.rows, "check")} of ${count(c.scans, "scan")}`;
  return `${count(c.universities, "university").replace("universitys", "universities")} and ${count(c.scans, "scan")}`;
}
const list = (values: string[] | undefined) => (values ?? []).flatMap((v) => v.split(",")).filter(Boolean);

interface ExportOpts {
  format?: string;
  country?: string[];
  domain?: string[];
  since?: string;
  db?: string;
}

/** The selection the options name; a bad value is an error naming it. */
function selectionOf(opts: ExportOpts, core: typeof import("../../lib/index.ts")): ExportSelection {
  const countries = list(opts.country).map((c) => c.toUpperCase());
  const badCountries = countries.filter((c) => !core.isCountryCode(c));
  if (badCountries.length > 0)
    throw new Error(`not an ISO 3166-1 alpha-2 country code: ${badCountries.join(", ")}`);
  const domains = list(opts.domain).map((d) => ({ given: d, domain: core.normaliseDomain(d) }));
  const badDomains = domains.filter((d) => d.domain === null).map((d) => d.given);
  if (badDomains.length > 0) throw new Error(`not a domain name: ${badDomains.join(", ")}`);
  const selection: ExportSelection = {};
  if (countries.length > 0) selection.countries = countries;
  if (domains.length > 0) selection.domains = domains.map((d) => d.domain as string);
  if (opts.since !== undefined)
    selection.since = core.isoTimestamp(parseSince(opts.since, core.parseTimestamp));
  return selection;
}

/** `unirank export`: the data, or a selection, in the formats researchers' tools read. */
export function registerExport(program: Command): void {
  withDbOption(program.command("export"))
    .description(
      "write the data (or a selection) to a file or - (stdout) as NDJSON (the import format), CSV, Parquet or a SQLite snapshot; one consistent snapshot, streamed (docs/research.md)",
    )
    .argument("<file>", "output file (.gz compresses the text formats) or - for standard output")
    .option(
      "--format <format>",
      `${EXPORT_FORMATS.join(", ")} (default by the file's extension: .ndjson/.jsonl, .csv, .parquet, .db/.sqlite; ndjson for -)`,
    )
    .option(
      "--country <codes...>",
      "only universities of these ISO 3166-1 alpha-2 countries (e.g. --country FR DE)",
    )
    .option("--domain <domains...>", "only these universities (by domain)")
    .option(
      "--since <t>",
      "only scans completed (else started) at or after this time: a timestamp or a duration back from now (30d); csv: universities whose latest completed scan did",
    )
    .action(async (file: string, opts: ExportOpts) => {
      const format = (opts.format ??
        (file === STDOUT ? "ndjson" : formatOfPath(file))) as ExportFormat | null;
      if (format === null)
        throw new Error(`cannot tell the format from ${file}; give --format (${EXPORT_FORMATS.join(", ")})`);
      if (!EXPORT_FORMATS.includes(format))
        throw new Error(`--format must be one of ${EXPORT_FORMATS.join(", ")}`);
      // Loaded on use: other commands, and `--help`, start without the exporters.
      const [{ placementProblem, runExport }, { collectGarbage, startMemorySteward }, { VERSION }] =
        await Promise.all([
          import("../export/run-export.ts"),
          import("../memory-steward.ts"),
          import("../version.ts"),
        ]);
      const problem = placementProblem(format, file);
      if (problem) throw new Error(problem);
      await withDatabase({ ...opts }, async ({ db, core, config }) => {
        const selection = selectionOf(opts, core);
        const stopSteward = startMemorySteward(config.gcHeadroomMb);
        const counts: ExportCounts = { universities: 0, scans: 0, rows: 0 };
        const started = performance.now();
        const ticker = setInterval(() => {
          const rate = Math.round(counts.rows / Math.max((performance.now() - started) / 1000, 0.001));
          process.stderr.write(`export: ${n(counts.rows)} rows, ${n(rate)} rows/s\n`);
        }, 2000);
        ticker.unref();
        // Ctrl-C or SIGTERM: the temporary file goes, nothing half-written stays.
        const onSignal = () => {
          if (file !== STDOUT) {
            for (const suffix of ["", "-wal", "-shm"])
              rmSync(`${partialName(file)}${suffix}`, { force: true });
          }
          process.stderr.write("unirank export: interrupted; nothing was written\n");
          process.exit(130);
        };
        process.on("SIGINT", onSignal);
        process.on("SIGTERM", onSignal);
        try {
          let s: Awaited<ReturnType<typeof runExport>>;
          try {
            s = await runExport(db, {
              format,
              path: file,
              selection,
              version: VERSION,
              counts,
              collect: collectGarbage,
            });
          } catch (e) {
            // The reader of standard output closed it (`| head`): it has what it wanted.
            if ((e as { code?: string }).code === "EPIPE" && file === STDOUT) return;
            throw e;
          }
          const rate = Math.round(s.rows / Math.max(s.seconds, 0.001));
          process.stderr.write(
            `exported ${written(format, s)} (${n(s.rows)} rows, ${format}) to ${file} in ${s.seconds.toFixed(1)} s (${n(rate)} rows/s); data generation ${s.generation}, unirank ${VERSION}\n`,
          );
        } finally {
          clearInterval(ticker);
          stopSteward();
          process.off("SIGINT", onSignal);
          process.off("SIGTERM", onSignal);
        }
      });
    });
}
