#!/usr/bin/env bun
import { Command } from "commander";
import { registerMigrate } from "./cli/migrate.ts";
import { registerSeed } from "./cli/seed.ts";
import { registerServe } from "./cli/serve.ts";
import { VERSION } from "./server.ts";

/** The `unirank` command. */
export function buildCli(): Command {
  const program = new Command("unirank")
    .description("unirank: read-only API about scanned university web presence")
    .version(VERSION)
    .showHelpAfterError()
    .configureOutput({ outputError: (text, write) => write(text) });
  registerServe(program);
  registerSeed(program);
  registerMigrate(program);
  return program;
}

if (import.meta.main) {
  buildCli()
    .parseAsync(process.argv)
    .catch((e: unknown) => {
      process.stderr.write(`unirank: ${e instanceof Error ? e.message : String(e)}\n`);
      process.exit(1);
    });
}
