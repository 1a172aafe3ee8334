import { createWriteStream } from "node:fs";
import type { Command } from "commander";
import { out, positiveInt, wholeNumber, withDatabase, withDbOption } from "./kit.ts";

/** `unirank seed`: the deterministic synthetic demo dataset, into a database or an NDJSON file. */
export function registerSeed(program: Command): void {
  withDbOption(
    program
      .command("seed")
      .description(
        "generate the deterministic synthetic demo dataset (fictional universities under .example)",
      )
      .option("--universities <n>", "number of universities (default 500)", positiveInt("universities"))
      .option(
        "--seed <s>",
        "random seed; the same seed gives the same data (default 42)",
        wholeNumber("seed"),
      )
      .option(
        "--anchor <date>",
        "the dataset's 'now'; scans span the two years before it (default 2026-11-20)",
      ),
  )
    .option("--out <file>", "write NDJSON records (the import format) to this file instead of a database")
    .action(async (opts) => {
      const [{ parseTimestamp }, { generateDataset }] = await Promise.all([
        import("../../lib/index.ts"),
        import("../../lib/seed/index.ts"),
      ]);
      const anchor = opts.anchor ? parseTimestamp(opts.anchor) : undefined;
      if (anchor === null) throw new Error("--anchor must be a date such as 2026-11-20");
      const records = generateDataset({ universities: opts.universities, seed: opts.seed, anchor });
      const started = performance.now();
      if (opts.out) {
        const file = createWriteStream(opts.out);
        let n = 0;
        for (const r of records) {
          if (!file.write(`${JSON.stringify(r)}\n`)) await new Promise((ok) => file.once("drain", ok));
          n++;
        }
        await new Promise<void>((ok, fail) => file.end((e?: Error | null) => (e ? fail(e) : ok())));
        out(`wrote ${n} records to ${opts.out}`);
        return;
      }
      const { displayLocation } = await import("../db/open.ts");
      await withDatabase(opts, async ({ db, core, config }) => {
        const summary = await core.writeRecords(db, records);
        const seconds = (performance.now() - started) / 1000;
        out(
          `seeded ${displayLocation(config.db)}: ${summary.universities} universities, ${summary.scans} scans in ${seconds.toFixed(1)} s`,
        );
      });
    });
}
