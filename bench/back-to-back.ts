/**
 * Back-to-back HTTP runs of two (or more) checkouts on one database, alternating, each against the ceiling
 * measured in the same round: for a noisy machine, where only ratios taken close together compare.
 *
 *   npx bun bench/back-to-back.ts DB --trees DIR[,DIR…] [--only a,b] [--rounds N] [--duration S] [--warmup S]
 *                            [--connections N] [--cache]
 *
 * Per round, `unirank serve` from every tree (response cache off unless --cache) and the ceiling (a bare Bun.serve
 * answering the rankings page's bytes) run side by side; for each scenario of bench/scenarios.ts named in --only,
 * uncached (a distinct `_=N` per request), the ceiling and then every tree are measured, one after the other, the
 * trees' order turning from scenario to scenario, so a share compares with the ceiling of the same minute. Servers
 * and ceiling on core 0, wrk (needed) on core 1. Prints one line per run (req/s, share of the ceiling, the server's
 * CPU µs per request, p99, the server's RSS) and, at the end, each tree's median share and its servers' peak RSS;
 * with two trees or more, each tree's CPU per request against the first tree's in the same round (the steadier
 * figure where the machine's speed moves from minute to minute).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { benchArgs } from "./args.ts";
import { median } from "./median.ts";
import { BUN, cpuSecondsOf, freePort, rssOf, sampleRss, startPinned, stopProcess } from "./proc.ts";
import { buildScenarios, prepareScenario } from "./scenarios.ts";
import { runWrk } from "./wrk.ts";

const ROOT = resolve(import.meta.dir, "..");
const { argv, value, dbPath } = benchArgs("back-to-back.ts DB --trees DIR[,DIR…] [--only a,b]");
const trees = (value("trees") ?? ROOT).split(",").map((t) => resolve(t));
const only = value("only")?.split(",") ?? null;
const rounds = Number(value("rounds") ?? 2);
const duration = Number(value("duration") ?? 5);
/** Seconds of load before each scenario's runs on each server (its builds, the JIT's tiers); 1 by default. */
const warmup = Number(value("warmup") ?? 1);
const connections = Number(value("connections") ?? 32);
const cached = argv.includes("--cache");
const work = join(tmpdir(), `unirank-b2b-${process.pid}`);
mkdirSync(work, { recursive: true });

const wrk = (base: string, paths: string[], bust: boolean, seconds: number) =>
  runWrk({ base, paths, bust, seconds, connections, dir: work });

const scenarios = buildScenarios(dbPath, { deepPage: 1000, distinct: 2000 }).filter(
  (s) => (only === null || only.includes(s.name)) && s.modes.includes(cached ? "cached" : "uncached"),
);
const shares = new Map<string, number[]>();
const peaks = new Map<string, number[]>();
/** CPU µs per request of each run, by scenario, tree and round. */
const cpuPerRequest = new Map<string, number>();

/** `unirank serve` from `tree` on a free port, pinned to core 0. */
async function startTree(tree: string) {
  const port = await freePort();
  const serve = [BUN, join(tree, "src/cli.ts"), "serve", "--db", dbPath, "--port", String(port)];
  serve.push("--rate-limit", "0", "--log-dir", join(work, "logs"), ...(cached ? [] : ["--no-cache"]));
  const base = `http://127.0.0.1:${port}`;
  const proc = await startPinned(serve, `${base}/health`);
  return { tree, base, proc, sampler: sampleRss(proc.pid) };
}

for (let round = 1; round <= rounds; round++) {
  // Every tree's server and the ceiling run side by side (the idle ones wait on core 0 at no cost), so each
  // scenario is measured on every tree and the ceiling within seconds, the order turning every scenario.
  const servers = [];
  for (const tree of trees) servers.push(await startTree(tree));
  const first = servers[0] as (typeof servers)[number];
  const body = await (await fetch(`${first.base}/api/v1/rankings`)).text();
  writeFileSync(join(work, "body.json"), body);
  const ceilingPort = await freePort();
  const ceilingBase = `http://127.0.0.1:${ceilingPort}`;
  const ceilingProc = await startPinned(
    [BUN, join(ROOT, "bench/ceiling.ts"), join(work, "body.json"), String(ceilingPort)],
    `${ceilingBase}/`,
  );
  await wrk(ceilingBase, ["/"], false, 1);
  for (const [index, sc] of scenarios.entries()) {
    const paths = sc.paths[cached ? "cached" : "uncached"];
    const turn = (round + index) % servers.length;
    const order = [...servers.slice(turn), ...servers.slice(0, turn)];
    for (const server of order) {
      await prepareScenario(server.base, paths);
      await wrk(server.base, paths, !cached, warmup);
    }
    const ceiling = await wrk(ceilingBase, ["/"], false, duration);
    for (const server of order) {
      const cpuBefore = cpuSecondsOf(server.proc.pid) ?? 0;
      const run = await wrk(server.base, paths, !cached, duration);
      const cpuUs = (((cpuSecondsOf(server.proc.pid) ?? 0) - cpuBefore) * 1e6) / (run.rps * duration);
      cpuPerRequest.set(`${sc.name}\t${server.tree}\t${round}`, cpuUs);
      const share = run.rps / ceiling.rps;
      const key = `${server.tree}\t${sc.name}`;
      shares.set(key, [...(shares.get(key) ?? []), share]);
      console.log(
        [
          `round ${round}`,
          server.tree.split("/").pop(),
          sc.name.padEnd(14),
          `${Math.round(run.rps)} req/s`.padStart(13),
          `${(share * 100).toFixed(1)} % of ${Math.round(ceiling.rps)}`.padStart(18),
          `${cpuUs.toFixed(1)} µs CPU`.padStart(13),
          `p99 ${run.p99.toFixed(2)} ms`,
          `rss ${Math.round((rssOf(server.proc.pid) ?? 0) / 1048576)} MB`,
          run.errors > 0 ? `${run.errors} errors` : "",
        ].join("  "),
      );
    }
  }
  await stopProcess(ceilingProc);
  for (const server of servers) {
    const peak = Math.max(server.sampler.stop(), rssOf(server.proc.pid, "VmHWM") ?? 0);
    peaks.set(server.tree, [...(peaks.get(server.tree) ?? []), peak]);
    console.log(
      `round ${round}  ${server.tree.split("/").pop()}  server peak RSS ${Math.round(peak / 1048576)} MB`,
    );
    await stopProcess(server.proc);
  }
}
console.log("median share of the ceiling:");
for (const [key, xs] of shares) {
  console.log(
    `  ${key.replace("\t", "  ")}  ${(median(xs) * 100).toFixed(1)} %  (${xs.map((x) => (x * 100).toFixed(1)).join(", ")})`,
  );
}
for (const [tree, xs] of peaks)
  console.log(`  ${tree}  server peak RSS ${xs.map((x) => Math.round(x / 1048576)).join(", ")} MB`);
if (trees.length > 1) {
  console.log(`CPU per request against ${trees[0]} in the same round (median, then each round):`);
  for (const sc of scenarios) {
    for (const tree of trees.slice(1)) {
      const ratios: number[] = [];
      for (let round = 1; round <= rounds; round++) {
        const base = cpuPerRequest.get(`${sc.name}\t${trees[0]}\t${round}`);
        const other = cpuPerRequest.get(`${sc.name}\t${tree}\t${round}`);
        if (base && other) ratios.push(other / base);
      }
      console.log(
        `  ${tree}  ${sc.name.padEnd(14)}  ${median(ratios).toFixed(2)}  (${ratios.map((r) => r.toFixed(2)).join(", ")})`,
      );
    }
  }
}
