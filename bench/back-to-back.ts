/**
 * Back-to-back HTTP runs of two (or more) checkouts on one database, alternating, each against the ceiling
 * measured in the same round: for a noisy machine, where only ratios taken close together compare.
 *
 *   npx bun bench/back-to-back.ts DB --trees DIR[,DIR…] [--only a,b] [--rounds N] [--duration S] [--connections N]
 *                            [--cache]
 *
 * Per round: the ceiling (a bare Bun.serve answering the rankings page's bytes), then for each tree in turn
 * `unirank serve` from that tree (response cache off unless --cache), every scenario of bench/scenarios.ts named
 * in --only, uncached (a distinct `_=N` per request). Server and ceiling on core 0, wrk (needed) on core 1. Prints one line
 * per run (req/s, share of the round's ceiling, p99, the server's RSS) and, at the end, each tree's median share.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { benchArgs } from "./args.ts";
import { BUN, freePort, rssOf, sampleRss, startPinned, stopProcess } from "./proc.ts";
import { buildScenarios, prepareScenario } from "./scenarios.ts";
import { runWrk } from "./wrk.ts";

const ROOT = resolve(import.meta.dir, "..");
const { argv, value, dbPath } = benchArgs("back-to-back.ts DB --trees DIR[,DIR…] [--only a,b]");
const trees = (value("trees") ?? ROOT).split(",").map((t) => resolve(t));
const only = value("only")?.split(",") ?? null;
const rounds = Number(value("rounds") ?? 2);
const duration = Number(value("duration") ?? 5);
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
let body = "";
for (let round = 1; round <= rounds; round++) {
  for (const tree of trees) {
    const port = await freePort();
    const serve = [BUN, join(tree, "src/cli.ts"), "serve", "--db", dbPath, "--port", String(port)];
    serve.push("--rate-limit", "0", "--log-dir", join(work, "logs"), ...(cached ? [] : ["--no-cache"]));
    const base = `http://127.0.0.1:${port}`;
    if (body === "") {
      const first = await startPinned(serve, `${base}/health`);
      body = await (await fetch(`${base}/api/v1/rankings`)).text();
      await stopProcess(first);
      writeFileSync(join(work, "body.json"), body);
    }
    // The ceiling of this moment, then the tree.
    const ceilingPort = await freePort();
    const ceilingBase = `http://127.0.0.1:${ceilingPort}`;
    const ceilingProc = await startPinned(
      [BUN, join(ROOT, "bench/ceiling.ts"), join(work, "body.json"), String(ceilingPort)],
      `${ceilingBase}/`,
    );
    await wrk(ceilingBase, ["/"], false, 1);
    const ceiling = await wrk(ceilingBase, ["/"], false, duration);
    await stopProcess(ceilingProc);
    const server = await startPinned(serve, `${base}/health`);
    const sampler = sampleRss(server.pid);
    for (const sc of scenarios) {
      const paths = sc.paths[cached ? "cached" : "uncached"];
      await prepareScenario(base, paths);
      await wrk(base, paths, !cached, 1);
      const run = await wrk(base, paths, !cached, duration);
      const share = run.rps / ceiling.rps;
      const key = `${tree}\t${sc.name}`;
      shares.set(key, [...(shares.get(key) ?? []), share]);
      console.log(
        [
          `round ${round}`,
          tree.split("/").pop(),
          sc.name.padEnd(14),
          `${Math.round(run.rps)} req/s`.padStart(13),
          `${(share * 100).toFixed(1)} % of ${Math.round(ceiling.rps)}`.padStart(18),
          `p99 ${run.p99.toFixed(2)} ms`,
          `rss ${Math.round((rssOf(server.pid) ?? 0) / 1048576)} MB`,
          run.errors > 0 ? `${run.errors} errors` : "",
        ].join("  "),
      );
    }
    const peak = Math.max(sampler.stop(), rssOf(server.pid, "VmHWM") ?? 0);
    console.log(`round ${round}  ${tree.split("/").pop()}  server peak RSS ${Math.round(peak / 1048576)} MB`);
    await stopProcess(server);
  }
}
console.log("median share of the ceiling:");
for (const [key, xs] of shares) {
  const sorted = [...xs].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] as number;
  console.log(
    `  ${key.replace("\t", "  ")}  ${(median * 100).toFixed(1)} %  (${xs.map((x) => (x * 100).toFixed(1)).join(", ")})`,
  );
}
