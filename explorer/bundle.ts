/**
 * Bundles the explorer (a Bun macro: runs when unirank is built or first loaded, so the compiled binary and the
 * package carry the assets as strings). uPlot's stylesheet is prepended to ours.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

export function explorerAssets(): { js: string; css: string } {
  const dir = import.meta.dir;
  // The bundler cannot be called from inside a macro; its command line can.
  const built = Bun.spawnSync(
    [process.execPath, "build", join(dir, "main.ts"), "--target=browser", "--format=iife", "--minify"],
    { stdout: "pipe", stderr: "pipe" },
  );
  if (built.exitCode !== 0) throw new Error(`explorer build failed: ${built.stderr.toString()}`);
  const js = built.stdout.toString();
  const css =
    readFileSync(join(dir, "../node_modules/uplot/dist/uPlot.min.css"), "utf8") +
    readFileSync(join(dir, "style.css"), "utf8");
  return { js, css };
}
