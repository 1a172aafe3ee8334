/**
 * Reads under the anonymous rate limit, as a default server answers them: every request admitted and counted (a
 * write of the access state), from many clients, beside the same reads with the limit off (`--rate-limit 0`, as
 * the other benches run). The load comes through the loopback as a trusted proxy, each request from an address of
 * its own (`X-Forwarded-For`), so no client reaches its limit.
 *
 *   npx bun bench/rate-limited.ts DB [--only a,b] [--rounds N] [--duration S] [--connections N]
 *
 * Per round both servers run side by side on core 0 (wrk on core 1), each scenario of bench/scenarios.ts named in
 * --only (default: `/universities/{id}` and v2 leaderboards) measured on each, the order turning every round.
 * Prints each run (req/s, p50, p99, the server's CPU µs a request, answers that were not 2xx) and, at the end, the
 * medians and the limited server's rate as a share of the unlimited one's.
 */
import { mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { benchArgs } from "./args.ts";
import { median } from "./median.ts";
import { BUN, cpuSecondsOf, freePort, startPinned, stopProcess } from "./proc.ts";
import { buildScenarios, prepareScenario } from "./scenarios.ts";
import { runWrk } from "./wrk.ts";

const ROOT = resolve(import.meta.dir, "..");
const { value, dbPath } = benchArgs("rate-limited.ts DB [--only a,b] [--rounds N] [--duration S]");
const only = value("only")?.split(",") ?? ["university", "leaderboard"];
const rounds = Number(value("rounds") ?? 3);
const duration = Number(value("duration") ?? 5);
const connections = Number(value("connections") ?? 32);
const work = join(tmpdir(), `unirank-rate-limited-${process.pid}`);
mkdirSync(work, { recursive: true });

const scenarios = buildScenarios(dbPath, { deepPage: 1000, distinct: 2000 }).filter((s) =>
  only.includes(s.name),
);
const servers = [
  { name: "limited", args: ["--rate-limit", "100", "--trust-proxy", "127.0.0.1/32"] },
  { name: "unlimited", args: ["--rate-limit", "0"] },
];
// Addresses no earlier run of this hour used (the limits' rows outlive the servers, in the access-state file).
let nextAddress = (Date.now() * 7919) % 16_000_000;
const addresses = (count: number) => {
  const from = nextAddress;
  nextAddress = (nextAddress + count) % 16_000_000;
  return from;
};

const figures = new Map<string, { rps: number[]; p50: number[]; p99: number[]; cpu: number[] }>();
for (let round = 1; round <= rounds; round++) {
  const started = [];
  for (const s of servers) {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const cmd = [
      BUN,
      join(ROOT, "src/cli.ts"),
      "serve",
      "--db",
      dbPath,
      "--port",
      String(port),
      "--no-cache",
    ];
    cmd.push("--log-dir", join(work, "logs"), ...s.args);
    started.push({ ...s, base, proc: await startPinned(cmd, `${base}/health`) });
  }
  const order = round % 2 === 0 ? [...started].reverse() : started;
  for (const sc of scenarios) {
    const paths = sc.paths.uncached;
    for (const server of order) {
      await prepareScenario(server.base, paths);
      // Warm-up: the reads' builds, the code's compilation.
      await runWrk({
        base: server.base,
        paths,
        bust: true,
        seconds: 2,
        connections,
        dir: work,
        forwardedFrom: addresses(100_000),
      });
      const cpuBefore = cpuSecondsOf(server.proc.pid) ?? 0;
      const run = await runWrk({
        base: server.base,
        paths,
        bust: true,
        seconds: duration,
        connections,
        dir: work,
        forwardedFrom: addresses(200_000),
      });
      const cpuUs = (((cpuSecondsOf(server.proc.pid) ?? 0) - cpuBefore) * 1e6) / (run.rps * duration);
      const key = `${sc.name}\t${server.name}`;
      const f = figures.get(key) ?? { rps: [], p50: [], p99: [], cpu: [] };
      f.rps.push(run.rps);
      f.p50.push(run.p50);
      f.p99.push(run.p99);
      f.cpu.push(cpuUs);
      figures.set(key, f);
      console.log(
        [
          `round ${round}`,
          sc.name.padEnd(12),
          server.name.padEnd(9),
          `${Math.round(run.rps)} req/s`.padStart(12),
          `p50 ${run.p50.toFixed(2)} ms`,
          `p99 ${run.p99.toFixed(2)} ms`,
          `${cpuUs.toFixed(1)} µs CPU`,
          run.errors > 0 ? `${run.errors} not 2xx` : "",
        ].join("  "),
      );
    }
  }
  for (const server of started) await stopProcess(server.proc);
}
console.log("medians:");
for (const sc of scenarios) {
  const limited = figures.get(`${sc.name}\tlimited`);
  const unlimited = figures.get(`${sc.name}\tunlimited`);
  if (!limited || !unlimited) continue;
  for (const [name, f] of [
    ["limited", limited],
    ["unlimited", unlimited],
  ] as const) {
    console.log(
      `  ${sc.name.padEnd(12)} ${name.padEnd(9)} ${Math.round(median(f.rps))} req/s, p50 ${median(f.p50).toFixed(2)} ms, p99 ${median(f.p99).toFixed(2)} ms, ${median(f.cpu).toFixed(1)} µs CPU`,
    );
  }
  const shares = limited.rps.map((r, i) => r / (unlimited.rps[i] as number));
  console.log(
    `  ${sc.name.padEnd(12)} limited at ${(median(shares) * 100).toFixed(0)} % of unlimited (${shares.map((s) => `${(s * 100).toFixed(0)} %`).join(", ")})`,
  );
}
