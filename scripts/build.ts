#!/usr/bin/env bun
/**
 * Builds what unirank distributes (`npm run build`):
 *
 * - `dist/unirank`: the standalone executable (`bun build --compile`), runs with neither Bun nor Node.
 * - `dist/js/`: the npm package's JavaScript (target node, ESM, dependencies left as imports) for the
 *   entry points in PACKAGE_ENTRIES, with shared code split into chunks so `unirank` and `unirank/elysia`
 *   share one copy of the core (one `UnirankError` class).
 * - `dist/cli/`: the npm package's command line (target bun, every dependency inlined), run by `bin/unirank.mjs`.
 * - `dist/types/`: type declarations (`tsc -p tsconfig.build.json`).
 *
 * `bun scripts/build.ts binary` or `... package` builds one half (`npm pack` runs the package half).
 */
import { existsSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import pkg from "../package.json" with { type: "json" };

const ROOT = resolve(import.meta.dir, "..");
const DIST = join(ROOT, "dist");

/** The package's entry points: subpath → source file (their compiled names mirror the source tree). */
export const PACKAGE_ENTRIES: Record<string, string> = {
  ".": "lib/index.ts",
  "./node": "lib/node/index.ts",
  "./scanner": "lib/scanner/index.ts",
  "./seed": "lib/seed/index.ts",
  "./webhooks": "lib/webhooks/receiver.ts",
  "./fetch": "src/fetch-handler.ts",
  "./elysia": "src/elysia.ts",
};

function run(cmd: string[]): void {
  const started = performance.now();
  const proc = Bun.spawnSync(cmd, { cwd: ROOT, stdout: "inherit", stderr: "inherit" });
  if (proc.exitCode !== 0) throw new Error(`failed (${proc.exitCode}): ${cmd.join(" ")}`);
  console.log(`  ${((performance.now() - started) / 1000).toFixed(1)} s  ${cmd.slice(0, 3).join(" ")}`);
}

/** The executable: no .env, bunfig.toml, tsconfig.json or package.json of the working directory is read. */
export function buildBinary(outfile = join(DIST, "unirank")): void {
  run([
    process.execPath,
    "build",
    "--compile",
    "--minify",
    "--sourcemap",
    "--no-compile-autoload-dotenv",
    "--no-compile-autoload-bunfig",
    "--no-compile-autoload-tsconfig",
    "--no-compile-autoload-package-json",
    "src/cli.ts",
    "--outfile",
    outfile,
  ]);
  // --sourcemap embeds the (zstd-compressed) map in the executable; the copy written beside it is not needed.
  rmSync(`${outfile}.map`, { force: true });
}

async function bundle(options: Parameters<typeof Bun.build>[0]): Promise<void> {
  const result = await Bun.build(options);
  if (!result.success) {
    for (const log of result.logs) console.error(log);
    throw new Error("bundling failed");
  }
}

/** Packages the compiled JavaScript imports at run time: `dependencies` and `peerDependencies`. */
export function runtimeDependencies(): string[] {
  const manifest = pkg as { dependencies?: object; peerDependencies?: object };
  return [...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.peerDependencies ?? {})];
}

export async function buildPackage(): Promise<void> {
  for (const dir of ["js", "cli", "types"]) rmSync(join(DIST, dir), { recursive: true, force: true });
  const entries = Object.values(PACKAGE_ENTRIES).filter((file) => existsSync(join(ROOT, file)));
  await bundle({
    entrypoints: entries.map((file) => join(ROOT, file)),
    root: ROOT,
    outdir: join(DIST, "js"),
    target: "node",
    format: "esm",
    splitting: true,
    // What the package declares stays an import (one Kysely, the embedder's Elysia); anything else, such as
    // the docs page's assets read `with { type: "text" }`, is inlined.
    external: runtimeDependencies().flatMap((name) => [name, `${name}/*`]),
    sourcemap: "linked",
    naming: { chunk: "chunks/[name]-[hash].[ext]" },
  });
  await bundle({
    entrypoints: [join(ROOT, "src/cli.ts")],
    outdir: join(DIST, "cli"),
    target: "bun",
    format: "esm",
    // Readable as shipped (stack traces included), so no source map to carry.
    minify: false,
    sourcemap: "none",
  });
  run([join(ROOT, "node_modules/.bin/tsc"), "-p", "tsconfig.build.json"]);
}

if (import.meta.main) {
  const what = process.argv[2] ?? "all";
  if (!["all", "binary", "package"].includes(what)) throw new Error("usage: build.ts [all|binary|package]");
  if (what !== "package") buildBinary();
  if (what !== "binary") await buildPackage();
}
