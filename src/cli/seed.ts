import { createWriteStream } from "node:fs";
import type { Command } from "commander";
import { migrate, parseTimestamp, writeRecords } from "../../lib/index.ts";
import { generateDataset } from "../../lib/seed/index.ts";
import { loadConfig } from "../config.ts";
import { displayLocation, openDatabase } from "../db/open.ts";
import { DB_OPTION_HELP, positiveInt } from "./options.ts";

export function registerSeed(program: Command): void {
  program
    .command("seed")
    .description("generate the deterministic synthetic demo dataset (fictional universities under .example)")
    .option("--universities <n>", "number of universities (default 500)", positiveInt("universities"))
    .option("--seed <s>", "random seed; the same seed gives the same data (default 42)", positiveInt("seed"))
    .option("--anchor <date>", "the dataset's 'now'; scans span the two years before it (default 2026-11-20)")
    .option("--db <path>", DB_OPTION_HELP)
    .option("--out <file>", "write NDJSON records (the import format) to this file instead of a database")
    .action(async (opts) => {
      const anchor = opts.anchor ? parseTimestamp(opts.anchor) : undefined;
      if (anchor === null) throw new Error("--anchor must be a date such as 2026-11-20");
      const records = generateDataset({ universities: opts.universities, seed: opts.seed, anchor });
      const started = performance.now();
      if (opts.out) {
        const out = createWriteStream(opts.out);
        let n = 0;
        for (const r of records) {
          if (!out.write(`${JSON.stringify(r)}\n`)) await new Promise((ok) => out.once("drain", ok));
          n++;
        }
        await new Promise<void>((ok, fail) => out.end((e?: Error | null) => (e ? fail(e) : ok())));
        process.stdout.write(`wrote ${n} records to ${opts.out}\n`);
        return;
      }
      const config = loadConfig(opts);
      const opened = await openDatabase(config.db);
      try {
        await migrate(opened.db);
        const summary = await writeRecords(opened.db, records);
        const seconds = (performance.now() - started) / 1000;
        process.stdout.write(
          `seeded ${displayLocation(config.db)}: ${summary.universities} universities, ${summary.scans} scans in ${seconds.toFixed(1)} s\n`,
        );
      } finally {
        await opened.close();
      }
    });
}
