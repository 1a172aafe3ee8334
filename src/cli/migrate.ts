import type { Command } from "commander";
import { migrate } from "../../lib/index.ts";
import { loadConfig } from "../config.ts";
import { openDatabase } from "../db/open.ts";
import { DB_OPTION_HELP } from "./options.ts";

export function registerMigrate(program: Command): void {
  program
    .command("migrate")
    .description("bring a database to the current schema (serve and import do this too)")
    .option("--db <path>", DB_OPTION_HELP)
    .action(async (opts) => {
      const config = loadConfig(opts);
      const opened = await openDatabase(config.db);
      try {
        const { applied } = await migrate(opened.db);
        process.stdout.write(applied.length ? `applied: ${applied.join(", ")}\n` : "already up to date\n");
      } finally {
        await opened.close();
      }
    });
}
