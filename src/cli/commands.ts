import { auditCommand } from "./audit.ts";
import { importCommand } from "./import.ts";
import { keysCommand } from "./keys.ts";
import type { CliCommand } from "./kit.ts";
import { migrateCommand } from "./migrate.ts";
import { registryCommand } from "./registry.ts";
import { scanCommand } from "./scan.ts";
import { seedCommand } from "./seed.ts";
import { serveCommand } from "./serve.ts";
import { webhooksCommand } from "./webhooks.ts";

/**
 * Every `unirank` command, in the order `--help` lists them. A command's file holds its options and its action,
 * which loads what it runs only when it runs (docs/architecture.md: adding a command).
 */
export const COMMANDS: readonly CliCommand[] = [
  serveCommand,
  scanCommand,
  seedCommand,
  migrateCommand,
  keysCommand,
  auditCommand,
  importCommand,
  webhooksCommand,
  registryCommand,
];
