/**
 * In-process cost of one request, without the network: the app as `unirank serve` builds it (access guard
 * with the rate limit off, response cache off), asked through `app.handle` in a loop. Prints microseconds per
 * request (wall and CPU: on a shared machine the CPU time is the steadier) for each endpoint, so a change to the request path can be measured without a load run.
 *
 *   bun bench/requests.ts DB [--iterations N] [--only a,b] [--cache] [--read-window MS]
 *
 * `--read-window` is how long plain reads share one SQLite read transaction, as the server's `--data-window`
 * (default 1 ms, as the server; 0 gives each statement its own).
 *
 * Under `bun --cpu-prof` it shows where those microseconds go.
 */
import { openDatabase } from "../src/db/open.ts";
import { benchArgs } from "./args.ts";
import { buildScenarios } from "./scenarios.ts";
import { servedApp } from "./served-app.ts";

const { argv, value, dbPath } = benchArgs(
  "requests.ts DB [--iterations N] [--only a,b] [--cache] [--read-window MS]",
);
const iterations = Number(value("iterations") ?? 2000);
const only = value("only")?.split(",") ?? null;
const cached = argv.includes("--cache");

const readWindowMs = Number(value("read-window") ?? 1);
const opened = await openDatabase(dbPath, { readWindowMs });
const served = await servedApp(dbPath, opened, { cache: cached });
const app = served.app;

const mode = cached ? "cached" : "uncached";
for (const sc of buildScenarios(dbPath, { deepPage: 1000, distinct: 500 })) {
  if (only && !only.includes(sc.name)) continue;
  const paths = sc.paths[mode] ?? sc.paths.uncached;
  const ask = async (i: number) => {
    const path = paths[i % paths.length] as string;
    const url = `http://127.0.0.1${path}${cached ? "" : `${path.includes("?") ? "&" : "?"}_=${i}`}`;
    const response = await app.handle(new Request(url));
    if (response.status !== 200) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return (await response.arrayBuffer()).byteLength;
  };
  for (let i = 0; i < Math.min(200, iterations); i++) await ask(i);
  let bytes = 0;
  const started = performance.now();
  const cpu = process.cpuUsage();
  for (let i = 0; i < iterations; i++) bytes += await ask(i);
  const us = ((performance.now() - started) * 1000) / iterations;
  const used = process.cpuUsage(cpu);
  const cpuUs = (used.user + used.system) / iterations;
  process.stdout.write(
    `${sc.name.padEnd(14)} ${mode.padEnd(8)} ${us.toFixed(1).padStart(8)} µs/request ${cpuUs.toFixed(1).padStart(8)} µs CPU  ${Math.round(bytes / iterations)} B\n`,
  );
}
await served.close();
await opened.close();
