import { type Command, InvalidArgumentError } from "commander";
import { out, withDatabase, withDbOption } from "./kit.ts";

function version(text: string): number {
  if (!/^[0-9]{1,9}$/.test(text) || Number(text) < 1)
    throw new InvalidArgumentError("--before takes a rubric version, a positive integer");
  return Number(text);
}

/** `unirank rescore`: stored scans' evidence scored again under the current rubrics (docs/scanner.md). */
export function registerRescore(program: Command): void {
  withDbOption(
    program
      .command("rescore")
      .description(
        "re-score stored scans' evidence under the current rubrics; rankings refresh, no webhook is sent",
      )
      .argument("[domains...]", "the scans of these stored universities")
      .option("--all", "every completed scan with evidence")
      .option("--before <version>", "scans scored under an older rubric version (or none named)", version),
  ).action(async (domains: string[], opts) => {
    const chosen = [domains.length > 0, Boolean(opts.all), opts.before !== undefined].filter(Boolean).length;
    if (chosen !== 1) throw new Error("name domains, or use --all or --before VERSION (one of them)");
    await withDatabase(opts, async ({ db, core }) => {
      const s = await core.rescoreScans(db, {
        ...(domains.length > 0 ? { domains } : {}),
        ...(opts.all ? { all: true } : {}),
        ...(opts.before !== undefined ? { before: opts.before } : {}),
      });
      out(
        `looked at ${s.examined} scan${s.examined === 1 ? "" : "s"} with evidence under rubric version ${core.RUBRIC_VERSION}: ${s.rescored} re-scored, ${s.unchanged} unchanged, ${s.skipped} without observations (left as they were)`,
      );
    });
  });
}
