import type { Command } from "commander";
import { refuseDemoMix, WITH_DEMO_OPTION } from "./demo.ts";
import { out, withDatabase, withDbOption } from "./kit.ts";

/** `unirank registry import`: the bundled registry of real universities. */
export function registerRegistry(program: Command): void {
  const registry = program
    .command("registry")
    .description("the bundled registry of real universities (university-domains-list, MIT)");
  withDbOption(
    registry
      .command("import")
      .description(
        "add the registry's universities not stored yet (never scores; re-running changes nothing)",
      )
      .option("--country <codes...>", "only these ISO 3166-1 alpha-2 countries (e.g. --country FR DE)")
      .option("--file <path>", "read this list instead of the bundled one (same JSON shape)")
      .option(...WITH_DEMO_OPTION),
  ).action(async (opts: { country?: string[]; file?: string; db?: string; withDemo?: boolean }) => {
    const [{ isCountryCode }, { readRegistry }, { displayLocation }] = await Promise.all([
      import("../../lib/index.ts"),
      import("../registry-data.ts"),
      import("../db/open.ts"),
    ]);
    const countries = (opts.country ?? []).flatMap((c) => c.split(",")).filter(Boolean);
    const bad = countries.filter((c) => !isCountryCode(c));
    if (bad.length > 0) throw new Error(`not an ISO 3166-1 alpha-2 country code: ${bad.join(", ")}`);
    const entries = await readRegistry(opts.file);
    await withDatabase(opts, async ({ db, core, config }) => {
      await refuseDemoMix(db, config.db, opts.withDemo);
      const s = await core.importRegistry(db, entries, { countries });
      out(
        `registry into ${displayLocation(config.db)}: ${s.listed} listed, ${s.inserted} added, ${s.existing} already stored, ${s.duplicates} duplicates, ${s.invalid} invalid`,
      );
    });
  });
}
