import type { Command } from "commander";
import { importRegistry, migrate } from "../../lib/index.ts";
import { isCountryCode } from "../../lib/write/country-codes.ts";
import { loadConfig } from "../config.ts";
import { displayLocation, openDatabase } from "../db/open.ts";
import { readRegistry } from "../registry-data.ts";
import { refuseDemoMix, WITH_DEMO_OPTION } from "./demo.ts";
import { DB_OPTION_HELP } from "./options.ts";

export function registerRegistry(program: Command): void {
  const registry = program
    .command("registry")
    .description("the bundled registry of real universities (university-domains-list, MIT)");
  registry
    .command("import")
    .description("add the registry's universities not stored yet (never scores; re-running changes nothing)")
    .option("--country <codes...>", "only these ISO 3166-1 alpha-2 countries (e.g. --country FR DE)")
    .option("--file <path>", "read this list instead of the bundled one (same JSON shape)")
    .option("--db <path>", DB_OPTION_HELP)
    .option(...WITH_DEMO_OPTION)
    .action(async (opts: { country?: string[]; file?: string; db?: string; withDemo?: boolean }) => {
      const countries = (opts.country ?? []).flatMap((c) => c.split(",")).filter(Boolean);
      const bad = countries.filter((c) => !isCountryCode(c));
      if (bad.length > 0) throw new Error(`not an ISO 3166-1 alpha-2 country code: ${bad.join(", ")}`);
      const config = loadConfig(opts);
      const entries = await readRegistry(opts.file);
      const opened = await openDatabase(config.db);
      try {
        await migrate(opened.db);
        await refuseDemoMix(opened.db, config.db, opts.withDemo);
        const s = await importRegistry(opened.db, entries, { countries });
        process.stdout.write(
          `registry into ${displayLocation(config.db)}: ${s.listed} listed, ${s.inserted} added, ${s.existing} already stored, ${s.duplicates} duplicates, ${s.invalid} invalid\n`,
        );
      } finally {
        await opened.close();
      }
    });
}
