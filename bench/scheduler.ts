import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { migrate, writeRecords } from "../lib/index.ts";
import { generateDataset } from "../lib/seed/index.ts";
import { openDatabase } from "../src/db/open.ts";
import { BUN, startBenchServe } from "./proc.ts";

/**
 * p50/p99 of v1 /rankings with and without a scan pass running in the same `serve`:
 * `bun bench/scheduler.ts [--universities 2000] [--targets 300] [--requests 3000] [--connections 8]`.
 * The database is a temporary SQLite file: the synthetic dataset (never scanned: reserved `.example` names)
 * plus `targets` universities of the loopback fixture web (`*.bench.test`, in its own process) due for a scan.
 * Each completed scan is a write that moves the data generation, so rankings are rebuilt under the load.
 */
const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const universities = arg("--universities", 2000);
const targets = arg("--targets", 300);
const requests = arg("--requests", 3000);
const connections = arg("--connections", 8);
const ROOT = join(import.meta.dir, "..");

const dir = mkdtempSync(join(tmpdir(), "unirank-bench-scheduler-"));
const dbPath = join(dir, "bench.db");
const opened = await openDatabase(dbPath);
await migrate(opened.db);
await writeRecords(opened.db, generateDataset({ universities, seed: 42 }), { events: false });
await writeRecords(
  opened.db,
  Array.from({ length: targets }, (_, i) => ({
    type: "university" as const,
    domain: `u${i}.bench.test`,
    name: `Bench ${i}`,
    country: "FR",
  })),
  { events: false },
);

const webProc = Bun.spawn([BUN, join(import.meta.dir, "scan-web-server.ts")], {
  stdout: "pipe",
  stderr: "inherit",
});
const reader = (webProc.stdout as ReadableStream<Uint8Array>).getReader();
let line = "";
while (!line.includes("\n")) {
  const { value, done } = await reader.read();
  if (done) throw new Error("the fixture web did not start");
  line += new TextDecoder().decode(value);
}
const web = JSON.parse(line) as {
  resolver: { host: string; port: number };
  ports: { http: number; https: number };
  ca: string;
};
const caFile = join(dir, "ca.pem");
writeFileSync(caFile, web.ca);

const serve = (extra: string[]) =>
  startBenchServe(ROOT, ["--db", dbPath, "--rate-limit", "0", "--log-dir", dir, ...extra]);

const PATHS = [
  "/api/v1/rankings",
  "/api/v1/rankings?page=2",
  "/api/v1/rankings?country=FR",
  "/api/v1/rankings?per_page=50",
];

async function load(url: string) {
  const times: number[] = [];
  let next = 0;
  const worker = async () => {
    for (;;) {
      const i = next++;
      if (i >= requests) return;
      const t = performance.now();
      const res = await fetch(`${url}${PATHS[i % PATHS.length]}`);
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
      times.push(performance.now() - t);
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  times.sort((a, b) => a - b);
  const q = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))]!.toFixed(2);
  return { p50: q(0.5), p99: q(0.99), max: times[times.length - 1]!.toFixed(2) };
}

const scansDone = async () =>
  Number(
    (
      await opened.db
        .selectFrom("scans")
        .select((eb) => eb.fn.countAll().as("n"))
        .where("source_id", "like", "scheduler:%")
        .executeTakeFirst()
    )?.n ?? 0,
  );

try {
  const quiet = await serve([]);
  await load(quiet.url); // warm-up
  const without = await load(quiet.url);
  quiet.proc.kill("SIGTERM");
  await quiet.proc.exited;

  const scanning = await serve([
    "--scan-every",
    "60s",
    "--scan-concurrency",
    "4",
    "--probe-every",
    "0",
    "--scan-resolver",
    `${web.resolver.host}:${web.resolver.port}`,
    "--scan-ports",
    `${web.ports.http},${web.ports.https}`,
    "--scan-ca-file",
    caFile,
    "--scan-allow-private-targets",
  ]);
  while ((await scansDone()) === 0) await Bun.sleep(100);
  await load(scanning.url); // warm-up
  const before = await scansDone();
  const started = performance.now();
  const during = await load(scanning.url);
  const seconds = (performance.now() - started) / 1000;
  const scanned = (await scansDone()) - before;
  scanning.proc.kill("SIGTERM");
  await scanning.proc.exited;
  process.stdout.write(
    `v1 /rankings over ${universities + targets} universities, ${requests} requests, ${connections} connections (ms):\n` +
      `  without scanning: p50 ${without.p50}  p99 ${without.p99}  max ${without.max}\n` +
      `  while scanning:   p50 ${during.p50}  p99 ${during.p99}  max ${during.max}  (${scanned} scans stored in ${seconds.toFixed(1)} s)\n`,
  );
} finally {
  webProc.kill("SIGTERM");
  await opened.close();
  rmSync(dir, { recursive: true, force: true });
}
