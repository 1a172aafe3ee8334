import type { Command } from "commander";
import { countDemoUniversities, type DB, migrate, removeDemoUniversities } from "../../lib/index.ts";
import { loadConfig } from "../config.ts";
import { displayLocation, openDatabase } from "../db/open.ts";
import { DB_OPTION_HELP } from "./options.ts";

/** `--with-demo` of the commands that bring real universities into a database. */
export const WITH_DEMO_OPTION = [
  "--with-demo",
  "write real universities into a database that also holds the synthetic demo ones",
] as const;

/**
 * Refuses to mix real universities with the synthetic demo: a database holding demo universities is named as such,
 * with the two ways on (`unirank demo remove`, or `--with-demo`).
 */
export async function refuseDemoMix(db: DB, location: string, withDemo: boolean | undefined): Promise<void> {
  if (withDemo) return;
  const demo = await countDemoUniversities(db);
  if (demo === 0) return;
  throw new Error(
    `${displayLocation(location)} holds ${demo} synthetic demo universities (under reserved .example names); ` +
      "take them out first with `unirank demo remove`, or pass --with-demo to keep them beside real data",
  );
}

export function registerDemo(program: Command): void {
  const demo = program.command("demo").description("the synthetic demo dataset a new database starts with");
  demo
    .command("remove")
    .description("take the demo universities (and their scans) out of the database; rankings follow at once")
    .option("--db <path>", DB_OPTION_HELP)
    .action(async (opts: { db?: string }) => {
      const config = loadConfig(opts);
      const opened = await openDatabase(config.db);
      try {
        await migrate(opened.db);
        const removed = await removeDemoUniversities(opened.db);
        process.stdout.write(
          removed.universities === 0
            ? `no demo universities in ${displayLocation(config.db)}\n`
            : `removed ${removed.universities} demo universities and ${removed.scans} scans from ${displayLocation(config.db)}\n`,
        );
      } finally {
        await opened.close();
      }
    });
}
