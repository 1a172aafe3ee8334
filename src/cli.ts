#!/usr/bin/env bun
import { Command } from "commander";
import { COMMANDS } from "./cli/commands.ts";
import { VERSION } from "./version.ts";

/** The `unirank` command: the table of commands, each loading what it runs when it runs. */
export function buildCli(): Command {
  const program = new Command("unirank")
    .description("unirank: read-only API about scanned university web presence")
    .version(VERSION)
    .showHelpAfterError()
    .configureOutput({ outputError: (text, write) => write(text) });
  for (const register of COMMANDS) register(program);
  return program;
}

if (import.meta.main && process.env.UNIRANK_SCAN_PROCESS === "1") {
  // A scan process started by `scan` or `serve` (src/scanner/scan-processes.ts), not a command.
  (await import("./scanner/scan-process.ts")).runScanProcess();
} else if (import.meta.main) {
  buildCli()
    .parseAsync(process.argv)
    .catch((e: unknown) => {
      process.stderr.write(`unirank: ${e instanceof Error ? e.message : String(e)}\n`);
      process.exit(1);
    });
}
