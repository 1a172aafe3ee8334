import { type Command, InvalidArgumentError } from "commander";
import { migrate } from "../../lib/migrations/migrate.ts";
import { rescoreScans } from "../../lib/scanner/rescore.ts";
import { RUBRIC_VERSION } from "../../lib/scanner/rubric-version.ts";
import { loadConfig } from "../config.ts";
import { openDatabase } from "../db/open.ts";
import { DB_OPTION_HELP } from "./options.ts";

function version(text: string): number {
  if (!/^[0-9]{1,9}$/.test(text) || Number(text) < 1)
    throw new InvalidArgumentError("--before takes a rubric version, a positive integer");
  return Number(text);
}

export function registerRescore(program: Command): void {
  program
    .command("rescore")
    .description(
      `re-score stored scans' evidence under the current rubrics (version ${RUBRIC_VERSION}); rankings refresh, no webhook is sent`,
    )
    .argument("[domains...]", "the scans of these stored universities")
    .option("--all", "every completed scan with evidence")
    .option("--before <version>", "scans scored under an older rubric version (or none named)", version)
    .option("--db <path>", DB_OPTION_HELP)
    .action(async (domains: string[], opts) => {
      const chosen = [domains.length > 0, Boolean(opts.all), opts.before !== undefined].filter(
        Boolean,
      ).length;
      if (chosen !== 1) throw new Error("name domains, or use --all or --before VERSION (one of them)");
      const config = loadConfig(opts);
      const opened = await openDatabase(config.db);
      try {
        await migrate(opened.db);
        const summary = await rescoreScans(opened.db, {
          ...(domains.length > 0 ? { domains } : {}),
          ...(opts.all ? { all: true } : {}),
          ...(opts.before !== undefined ? { before: opts.before } : {}),
        });
        process.stdout.write(
          `looked at ${summary.examined} scan${summary.examined === 1 ? "" : "s"} with evidence under rubric version ${RUBRIC_VERSION}: ${summary.rescored} re-scored, ${summary.unchanged} unchanged, ${summary.skipped} without observations (left as they were)\n`,
        );
      } finally {
        await opened.close();
      }
    });
}
