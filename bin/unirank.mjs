#!/usr/bin/env node
// The `unirank` command of the npm package. The command line (server, import, keys, webhooks, ...) uses Bun's
// SQLite and HTTP server, so it runs on Bun: this launcher starts `dist/cli/cli.js` with the Bun running it
// (`bunx unirank`) or the `bun` on PATH. Without Bun, use the standalone executable (`npm run build` in a
// checkout gives `dist/unirank`, which needs neither Bun nor Node); the library itself runs on Node ≥ 22.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const cli = fileURLToPath(new URL("../dist/cli/cli.js", import.meta.url));
const bun = process.versions.bun ? process.execPath : process.env.BUN_BIN || "bun";
const result = spawnSync(bun, [cli, ...process.argv.slice(2)], { stdio: "inherit" });
if (result.error) {
  const missing = /** @type {NodeJS.ErrnoException} */ (result.error).code === "ENOENT";
  process.stderr.write(
    missing
      ? "unirank: the command line runs on Bun (https://bun.sh), which is not on PATH (or set BUN_BIN).\n" +
          "Install Bun, or use the standalone `unirank` executable, which needs neither Bun nor Node.\n" +
          'The library (import "unirank", "unirank/elysia", "unirank/webhooks") works on Node >= 22 as is.\n'
      : `unirank: could not start ${bun}: ${result.error.message}\n`,
  );
  process.exit(127);
}
if (result.signal) process.kill(process.pid, result.signal);
process.exit(result.status ?? 1);
