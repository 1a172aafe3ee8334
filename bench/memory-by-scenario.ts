/**
 * What the server's memory holds, scenario by scenario: the app as `unirank serve` builds it (response cache off)
 * asks each scenario of bench/scenarios.ts 300 times through `app.handle`, then a full collection; after each, the
 * resident size (anonymous and file-backed) and the JavaScript heap (its size, the part outside the heap's cells
 * such as typed arrays and string buffers, and its object count). What each structure costs is the step it adds.
 *
 *   bun bench/memory-by-scenario.ts DB
 */
import { heapStats } from "bun:jsc";
import { readFileSync } from "node:fs";
import { openDatabase } from "../src/db/open.ts";
import { benchArgs } from "./args.ts";
import { buildScenarios } from "./scenarios.ts";
import { servedApp } from "./served-app.ts";

const { dbPath } = benchArgs("memory-by-scenario.ts DB");
const mb = (kb: string | undefined) => (Number(kb) / 1024).toFixed(1).padStart(6);
const resident = () => {
  const status = readFileSync("/proc/self/status", "utf8");
  const kb = (name: string) => new RegExp(`^${name}:\\s+(\\d+)`, "m").exec(status)?.[1];
  return `RSS ${mb(kb("VmRSS"))} MB (anonymous ${mb(kb("RssAnon"))}, files ${mb(kb("RssFile"))})`;
};

process.stdout.write(`${"start".padEnd(16)} ${resident()}\n`);
const opened = await openDatabase(dbPath, { readWindowMs: 1 });
const { app, close } = await servedApp(dbPath, opened);
process.stdout.write(`${"app".padEnd(16)} ${resident()}\n`);
for (const sc of buildScenarios(dbPath, { deepPage: 1000, distinct: 500 })) {
  const paths = sc.paths.uncached;
  for (let i = 0; i < 300; i++) {
    const response = await app.handle(new Request(`http://127.0.0.1${paths[i % paths.length]}`));
    await response.arrayBuffer();
  }
  Bun.gc(true);
  const h = heapStats();
  const heap = `heap ${(h.heapSize / 1048576).toFixed(1)} MB (outside cells ${(h.extraMemorySize / 1048576).toFixed(1)}), ${h.objectCount} objects`;
  process.stdout.write(`${sc.name.padEnd(16)} ${resident()}  ${heap}\n`);
}
await close();
await opened.close();
