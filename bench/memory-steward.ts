/**
 * What the memory steward gives back: makes three million short-lived strings (over 500 MB resident), drops them, and prints the
 * resident size 200 ms later with and without the steward (each in a fresh process, so neither sees the other's
 * heap).
 *
 *   bun bench/memory-steward.ts
 */
import { startMemorySteward } from "../src/memory-steward.ts";

const mb = () => Math.round(process.memoryUsage.rss() / 1048576);

async function once(withSteward: boolean): Promise<void> {
  Bun.gc(true);
  const stop = withSteward ? startMemorySteward(16, { everyMs: 20 }) : () => {};
  let junk: string[][] = [];
  for (let i = 0; i < 60; i++)
    junk.push(Array.from({ length: 50_000 }, (_, j) => `${i}:${j}:${"x".repeat(24)}`));
  const peak = mb();
  junk = [];
  await Bun.sleep(200);
  stop();
  process.stdout.write(
    `${withSteward ? "steward" : "none   "}  peak ${peak} MB  after 200 ms ${mb()} MB  (${junk.length})\n`,
  );
}

const mode = process.argv[2];
if (mode === "steward" || mode === "none") await once(mode === "steward");
else {
  for (const m of ["none", "steward", "none", "steward"]) {
    const child = Bun.spawnSync([process.execPath, import.meta.path, m]);
    process.stdout.write(child.stdout.toString());
  }
}
