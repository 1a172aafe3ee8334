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
import { openAccessState, openDatabase } from "../src/db/open.ts";
import { createAccessGuard } from "../src/http/access.ts";
import { createApp } from "../src/http/app.ts";
import { appContext } from "../src/server.ts";
import { benchArgs } from "./args.ts";
import { buildScenarios } from "./scenarios.ts";

const { argv, value, dbPath } = benchArgs(
  "requests.ts DB [--iterations N] [--only a,b] [--cache] [--read-window MS]",
);
const iterations = Number(value("iterations") ?? 2000);
const only = value("only")?.split(",") ?? null;
const cached = argv.includes("--cache");

const readWindowMs = Number(value("read-window") ?? 1);
const opened = await openDatabase(dbPath, { readWindowMs });
const config = {
  db: dbPath,
  logDir: "/tmp",
  cache: cached,
  cacheEntries: 1000,
  minFreeDiskGb: 0,
} as Parameters<typeof appContext>[0];
const log = () => {};
const ctx = appContext(config, opened, log);
// The audit log goes to the access-state file beside the data, as the server's does.
const state = await openAccessState(dbPath, opened);
const access = createAccessGuard({
  db: opened.db,
  stateDb: state.db,
  clock: ctx.clock,
  anonymousLimit: 0,
  pruneIntervalMs: 0,
});
const app = createApp({ ...ctx, access });

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
await access.close();
await state.close();
await opened.close();
