import type { Command } from "commander";
import { out, withDatabase, withDbOption } from "./kit.ts";

/** `unirank migrate`: brings a database to the current schema. */
export function registerMigrate(program: Command): void {
  withDbOption(
    program
      .command("migrate")
      .description("bring a database to the current schema (serve and import do this too)"),
  ).action(async (opts) => {
    const { applied } = await withDatabase(opts, ({ db, core }) => core.migrate(db), { migrate: false });
    out(applied.length ? `applied: ${applied.join(", ")}` : "already up to date");
  });
}
