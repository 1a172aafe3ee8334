/**
 * What metrics and the access log cost on the request path: "off" (nothing observed) against "on" (the
 * Prometheus metrics and the access log both on, lines written to a real file), on rankings and a university's
 * point lookup, uncached (a distinct query string per request) and cached. Runs alternate off/on (and which goes
 * first) so the machine's drift falls on both. The figure is CPU time per request (user + system, every thread:
 * the log's writes too), which a shared machine's other load inflates far less than wall time.
 *
 *   bun bench/observability.ts DB [--iterations N] [--rounds R] [--only a,b] [--observe metrics|log|both]
 *                                                                                  in process (app.handle)
 *   bun bench/observability.ts DB --http [--iterations N] [--rounds R] [--only a,b]   two real `unirank serve`
 *
 * In process: the app as `serve` builds it (access guard, rate limit off) asked in a loop; CPU of this process.
 * Over HTTP: `serve` with and without `--access-log --metrics-listen`, loaded by autocannon (node) with a fixed
 * number of requests; CPU of the server process from /proc.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { accessLog } from "../src/access-log.ts";
import { openDatabase } from "../src/db/open.ts";
import type { UnirankApp } from "../src/http/app.ts";
import { observers } from "../src/http/observer.ts";
import { createLogger } from "../src/logger.ts";
import { ServerMetrics } from "../src/metrics.ts";
import { benchArgs } from "./args.ts";
import { median } from "./median.ts";
import { BUN, cpuSecondsOf, freePort, waitReady } from "./proc.ts";
import { buildScenarios, type Mode } from "./scenarios.ts";
import { servedApp } from "./served-app.ts";

const ROOT = resolve(import.meta.dir, "..");
const { argv, value, dbPath } = benchArgs(
  "observability.ts DB [--http] [--iterations N] [--rounds R] [--only a,b]",
);
const http = argv.includes("--http");
const iterations = Number(value("iterations") ?? (http ? 10_000 : 1000));
const rounds = Number(value("rounds") ?? (http ? 5 : 11));
const only = value("only")?.split(",") ?? ["rankings", "university"];
/** In process: which of the two "on" has (metrics, log or both). */
const which = value("observe") ?? "both";
const logDir = mkdtempSync(join(tmpdir(), "unirank-bench-logs-"));

const fixed = (xs: number[]) => xs.map((x) => x.toFixed(1)).join(" ");

/** A way to send `count` requests of a scenario to one side and return its CPU µs per request. */
type Side = (paths: string[], mode: Mode, count: number) => Promise<number>;

async function compare(name: string, mode: Mode, paths: string[], sides: { off: Side; on: Side }) {
  await sides.off(paths, mode, Math.min(iterations, 500));
  await sides.on(paths, mode, Math.min(iterations, 500));
  const us = { off: [] as number[], on: [] as number[] };
  const ratios: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 === 0 ? (["off", "on"] as const) : (["on", "off"] as const);
    const round = { off: 0, on: 0 };
    for (const which of order) round[which] = await sides[which](paths, mode, iterations);
    us.off.push(round.off);
    us.on.push(round.on);
    ratios.push(round.on / round.off);
  }
  process.stdout.write(
    `${`${name} ${mode}`.padEnd(20)} CPU µs/request off ${fixed(us.off)} | on ${fixed(us.on)} | median ratio on/off ${median(ratios).toFixed(3)}\n`,
  );
}

/** In process: two apps over one database, asked through `app.handle`. */
async function inProcess() {
  const opened = await openDatabase(dbPath as string);
  const log = createLogger(logDir, { quiet: true });
  const metrics = new ServerMetrics();
  const served: { close(): Promise<void> }[] = [];
  const build = async (observed: boolean, cached: boolean): Promise<UnirankApp> => {
    const observer = observed
      ? observers([which !== "log" ? metrics : null, which !== "metrics" ? accessLog(log) : null])
      : undefined;
    const one = await servedApp(dbPath as string, opened, {
      cache: cached,
      logDir,
      log,
      ...(observer ? { observer } : {}),
    });
    served.push(one);
    return one.app;
  };
  let n = 0;
  const side =
    (app: UnirankApp): Side =>
    async (paths, mode, count) => {
      const started = process.cpuUsage();
      for (let i = 0; i < count; i++, n++) {
        const path = paths[n % paths.length] as string;
        const url = `http://127.0.0.1${path}${mode === "cached" ? "" : `${path.includes("?") ? "&" : "?"}_=${n}`}`;
        const response = await app.handle(new Request(url));
        if (response.status !== 200) throw new Error(`${path}: ${response.status}`);
        await response.arrayBuffer();
      }
      const used = process.cpuUsage(started);
      return (used.user + used.system) / count;
    };
  for (const sc of buildScenarios(dbPath as string, { deepPage: 1000, distinct: 500 })) {
    if (!only.includes(sc.name)) continue;
    for (const mode of ["uncached", "cached"] as const) {
      const cached = mode === "cached";
      await compare(sc.name, mode, sc.paths[mode] ?? sc.paths.uncached, {
        off: side(await build(false, cached)),
        on: side(await build(true, cached)),
      });
    }
  }
  for (const one of served) await one.close();
  await log.flush();
  await opened.close();
}

/** CPU (user + system) of a process so far, in µs. */
const cpuOf = (pid: number): number => (cpuSecondsOf(pid) ?? 0) * 1_000_000;

/** Over HTTP: two `unirank serve` on the database, loaded in turn by autocannon. */
async function overHttp() {
  const start = async (extra: string[]) => {
    const port = await freePort();
    const proc = Bun.spawn(
      [
        BUN,
        "src/cli.ts",
        "serve",
        "--port",
        String(port),
        "--db",
        dbPath as string,
        "--rate-limit",
        "0",
        ...extra,
      ],
      { cwd: ROOT, stdout: "ignore", stderr: "ignore", env: { ...process.env, UNIRANK_LOG_DIR: logDir } },
    );
    const url = `http://127.0.0.1:${port}`;
    await waitReady(`${url}/health`, performance.now(), { alive: () => proc.exitCode === null });
    return { proc, url };
  };
  const off = await start([]);
  const on = await start(["--access-log", "--metrics-listen", "127.0.0.1:0"]);
  const pathsFile = join(logDir, "paths.txt");
  const side =
    (server: { proc: Bun.Subprocess; url: string }): Side =>
    async (paths, mode, count) => {
      writeFileSync(pathsFile, paths.join("\n"));
      const before = cpuOf(server.proc.pid);
      const loader = Bun.spawn(
        [
          "node",
          "bench/load-autocannon.mjs",
          server.url,
          pathsFile,
          "8",
          "60",
          mode === "uncached" ? "bust" : "same",
          String(count),
        ],
        { cwd: ROOT, stdout: "pipe", stderr: "ignore" },
      );
      const out = await new Response(loader.stdout).text();
      await loader.exited;
      const result = JSON.parse(out.trim().split("\n").at(-1) ?? "{}") as {
        status_codes?: Record<string, number>;
      };
      const answered = result.status_codes?.["200"] ?? 0;
      if (answered < count) throw new Error(`${server.url}: ${answered} of ${count} answered 200 (${out})`);
      return (cpuOf(server.proc.pid) - before) / count;
    };
  try {
    for (const sc of buildScenarios(dbPath as string, { deepPage: 1000, distinct: 500 })) {
      if (!only.includes(sc.name)) continue;
      for (const mode of ["uncached", "cached"] as const)
        await compare(sc.name, mode, sc.paths[mode] ?? sc.paths.uncached, { off: side(off), on: side(on) });
    }
  } finally {
    off.proc.kill("SIGTERM");
    on.proc.kill("SIGTERM");
    await Promise.all([off.proc.exited, on.proc.exited]);
  }
}

try {
  process.stdout.write(
    `${http ? "over HTTP" : "in process"}: ${iterations} requests a run, ${rounds} runs a side\n`,
  );
  await (http ? overHttp() : inProcess());
} finally {
  rmSync(logDir, { recursive: true, force: true });
}
