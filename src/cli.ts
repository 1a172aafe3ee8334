#!/usr/bin/env bun
import { Command } from "commander";
import { registerAudit } from "./cli/audit.ts";
import { registerDemo } from "./cli/demo.ts";
import { registerExport } from "./cli/export.ts";
import { registerImport } from "./cli/import.ts";
import { registerKeys } from "./cli/keys.ts";
import { registerMigrate } from "./cli/migrate.ts";
import { registerRegistry } from "./cli/registry.ts";
import { registerScan } from "./cli/scan.ts";
import { registerScanStatus } from "./cli/scan-status.ts";
import { registerSeed } from "./cli/seed.ts";
import { registerServe } from "./cli/serve.ts";
import { registerWebhooks } from "./cli/webhooks.ts";
import { VERSION } from "./server.ts";

/** The `unirank` command. */
export function buildCli(): Command {
  const program = new Command("unirank")
    .description("unirank: read-only API about scanned university web presence")
    .version(VERSION)
    .showHelpAfterError()
    .configureOutput({ outputError: (text, write) => write(text) });
  registerServe(program);
  registerScan(program);
  registerScanStatus(program);
  registerSeed(program);
  registerMigrate(program);
  registerKeys(program);
  registerAudit(program);
  registerImport(program);
  registerExport(program);
  registerWebhooks(program);
  registerRegistry(program);
  registerDemo(program);
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
