import type { Command } from "commander";
import { registerAudit } from "./audit.ts";
import { registerDemo } from "./demo.ts";
import { registerExport } from "./export.ts";
import { registerImport } from "./import.ts";
import { registerKeys } from "./keys.ts";
import { registerMigrate } from "./migrate.ts";
import { registerRegistry } from "./registry.ts";
import { registerRescore } from "./rescore.ts";
import { registerScan } from "./scan.ts";
import { registerSeed } from "./seed.ts";
import { registerServe } from "./serve.ts";
import { registerWebhooks } from "./webhooks.ts";

/**
 * Every `unirank` command, in the order `--help` lists them: each adds its options and its action, which loads
 * what it runs only when it runs (docs/architecture.md: adding a command).
 */
export const COMMANDS: readonly ((program: Command) => void)[] = [
  registerServe,
  registerScan,
  registerRescore,
  registerSeed,
  registerMigrate,
  registerKeys,
  registerAudit,
  registerImport,
  registerExport,
  registerWebhooks,
  registerRegistry,
  registerDemo,
];
