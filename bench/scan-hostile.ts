import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { migrate, writeRecords } from "../lib/index.ts";
import { openDatabase } from "../src/db/open.ts";
import { HOSTILE_SITES } from "../test/support/hostile-web.ts";
import { spawnHostileWeb } from "../test/support/hostile-web-process.ts";
import { BUN, rssOf, startBenchServe } from "./proc.ts";

/**
 * API latency while `serve --scan-every` scans hostile sites (1-byte chunks, 5 MiB of nested HTML, a 1 GiB
 * Content-Length, in their own process), against the same server not scanning, runs alternated:
 * `bun bench/scan-hostile.ts [--rounds 2] [--seconds 15] [--rate 20] [--root DIR]`. Requests are fired at a steady
 * rate (`--rate` a second, each on its own), so a held server delays every request sent meanwhile. Then
 * `unirank scan drip.test` (the 1-byte chunks), with the peak resident memory of the command and of its scan
 * processes. `--root` runs `serve` and `scan` from another checkout (an earlier build, for before/after).
 */
const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const rootArg = process.argv.indexOf("--root");
const ROOT = rootArg > 0 ? (process.argv[rootArg + 1] as string) : join(import.meta.dir, "..");
const rounds = arg("--rounds", 2);
const seconds = arg("--seconds", 15);
const rate = arg("--rate", 20);

const dir = mkdtempSync(join(tmpdir(), "unirank-bench-hostile-"));
const web = await spawnHostileWeb();
const scanFlags = (prefix: string) => [
  `--${prefix}resolver`,
  `${web.resolver.host}:${web.resolver.port}`,
  `--${prefix}ports`,
  `${web.ports.http},${web.ports.https}`,
  `--${prefix}allow-private-targets`,
];

async function database(name: string): Promise<string> {
  const path = join(dir, `${name}.db`);
  const opened = await openDatabase(path);
  await migrate(opened.db);
  await writeRecords(
    opened.db,
    HOSTILE_SITES.map((domain) => ({ type: "university" as const, domain, name: domain, country: "FR" })),
  );
  await opened.close();
  return path;
}

const serve = (db: string, extra: string[]) =>
  startBenchServe(ROOT, ["--db", db, "--rate-limit", "0", "--log-dir", dir, ...extra]);

/** Requests at a steady rate, each on its own; latencies sorted. */
async function paced(url: string): Promise<number[]> {
  const times: Promise<number>[] = [];
  const start = performance.now();
  for (let i = 0; i < rate * seconds; i++) {
    await Bun.sleep(Math.max(0, start + (i * 1000) / rate - performance.now()));
    times.push(
      (async () => {
        const t = performance.now();
        const res = await fetch(`${url}/api/v1/universities?per_page=5`);
        await res.arrayBuffer();
        return performance.now() - t;
      })(),
    );
  }
  return (await Promise.all(times)).sort((a, b) => a - b);
}

const q = (t: number[], p: number) => t[Math.min(t.length - 1, Math.floor(p * t.length))] ?? 0;

/** Processes whose parent is `pid`. */
function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      if (Number(stat.split(") ")[1]?.split(" ")[1]) === pid) out.push(Number(name));
    } catch {}
  }
  return out;
}

/** Samples the peak RSS of a process and, separately, the largest of its children, every 200 ms. */
function samplePeaks(pid: number) {
  let own = 0;
  let child = 0;
  const timer = setInterval(() => {
    own = Math.max(own, rssOf(pid) ?? 0);
    for (const c of childrenOf(pid)) child = Math.max(child, rssOf(c) ?? 0);
  }, 200);
  return () => {
    clearInterval(timer);
    return { own, child };
  };
}

/** Whether a scan has been stored `running` (or further) in the database at `path`. */
async function started(path: string): Promise<boolean> {
  const opened = await openDatabase(path);
  try {
    return (await opened.db.selectFrom("scans").select("id").executeTakeFirst()) !== undefined;
  } finally {
    await opened.close();
  }
}

const mb = (b: number) => `${(b / 1024 / 1024).toFixed(0)} MB`;
const ms = (x: number) => x.toFixed(1);

try {
  const quietDb = await database("quiet");
  const scanDb = await database("scanning");
  const rows: string[] = [];
  for (let round = 1; round <= rounds; round++) {
    const quiet = await serve(quietDb, []);
    await paced(quiet.url);
    const without = await paced(quiet.url);
    quiet.proc.kill("SIGTERM");
    await quiet.proc.exited;
    const scanning = await serve(scanDb, [
      "--scan-every",
      "5s",
      "--scan-concurrency",
      "4",
      "--probe-every",
      "0",
      ...scanFlags("scan-"),
    ]);
    // Measured once the first scans are under way (and their processes started).
    while (!(await started(scanDb))) await Bun.sleep(100);
    await Bun.sleep(2000);
    const peaks = samplePeaks(scanning.proc.pid);
    const during = await paced(scanning.url);
    const peak = peaks();
    scanning.proc.kill("SIGTERM");
    await scanning.proc.exited;
    rows.push(
      `round ${round}: without scanning p50 ${ms(q(without, 0.5))} p99 ${ms(q(without, 0.99))} max ${ms(q(without, 1))}; ` +
        `while scanning p50 ${ms(q(during, 0.5))} p99 ${ms(q(during, 0.99))} max ${ms(q(during, 1))} ` +
        `(p99 ratio ${(q(during, 0.99) / Math.max(q(without, 0.99), 0.001)).toFixed(2)}); serve RSS peak ${mb(peak.own)}, ` +
        `largest scan process ${peak.child ? mb(peak.child) : "none"}; load ${loadavg()[0]?.toFixed(1)}`,
    );
  }
  process.stdout.write(
    `v1 /universities at ${rate} requests/s for ${seconds} s, ms, serve from ${ROOT}:\n${rows.map((r) => `  ${r}\n`).join("")}`,
  );
  const cliDb = await database("cli");
  const cli = Bun.spawn([BUN, "src/cli.ts", "scan", "drip.test", "--db", cliDb, ...scanFlags("")], {
    cwd: ROOT,
    stdout: "pipe",
    stderr: "pipe",
  });
  const peaks = samplePeaks(cli.pid);
  const out = await new Response(cli.stdout).text();
  await cli.exited;
  const peak = peaks();
  process.stdout.write(
    `unirank scan drip.test: ${out.split("\n")[0]}\n  peak RSS: the command ${mb(peak.own)}, its scan process ${peak.child ? mb(peak.child) : "none"}\n`,
  );
} finally {
  await web.stop();
  rmSync(dir, { recursive: true, force: true });
}
