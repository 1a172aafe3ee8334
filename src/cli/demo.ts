import type { Command } from "commander";
import type { DB } from "../../lib/index.ts";
import { out, withDatabase, withDbOption } from "./kit.ts";

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
  const [{ countDemoUniversities }, { displayLocation }] = await Promise.all([
    import("../../lib/index.ts"),
    import("../db/open.ts"),
  ]);
  const demo = await countDemoUniversities(db);
  if (demo === 0) return;
  throw new Error(
    `${displayLocation(location)} holds ${demo} synthetic demo universities (under reserved .example names); ` +
      "take them out first with `unirank demo remove`, or pass --with-demo to keep them beside real data",
  );
}

/** `unirank demo remove`: the synthetic demo dataset out of a database. */
export function registerDemo(program: Command): void {
  const demo = program.command("demo").description("the synthetic demo dataset a new database starts with");
  withDbOption(
    demo
      .command("remove")
      .description(
        "take the demo universities (and their scans) out of the database; rankings follow at once",
      ),
  ).action(async (opts: { db?: string }) => {
    const { displayLocation } = await import("../db/open.ts");
    await withDatabase(opts, async ({ db, core, config }) => {
      const removed = await core.removeDemoUniversities(db);
      out(
        removed.universities === 0
          ? `no demo universities in ${displayLocation(config.db)}`
          : `removed ${removed.universities} demo universities and ${removed.scans} scans from ${displayLocation(config.db)}`,
      );
    });
  });
}
