import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { migrate } from "../lib/migrations/migrate.ts";
import { writeRecords } from "../lib/write/write-records.ts";
import { openDatabase } from "../src/db/open.ts";
import { startMemorySteward } from "../src/memory-steward.ts";
import { runScans } from "../src/scanner/run-scans.ts";
import { ScanProcesses, scanProcessCommand } from "../src/scanner/scan-processes.ts";
import { inProcessRunner, type ScanOptions } from "../src/scanner/scan-university.ts";
import { BUN, rssOf } from "./proc.ts";

/**
 * Scans per second, CPU per scan and peak RSS of the scanner over loopback fixture universities (no browser):
 * `bun bench/scan.ts [--count 1000] [--concurrency 32] [--db] [--in-process]`. The fixture web runs in its own
 * process. Scans run as `unirank scan` runs them, each in a scan process (`ScanProcesses`, `--concurrency`
 * processes); `--in-process` runs them on this thread instead. CPU counts this process and its scan processes.
 * `--db` writes every scan through runScans into a temporary SQLite file; `--cpu-prof DIR` writes a CPU profile of
 * each scan process into DIR (summarise one with `bun bench/cpu-profile.ts`).
 */
const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const count = arg("--count", 1000);
const concurrency = arg("--concurrency", 32);
const withDb = process.argv.includes("--db");
const inProcess = process.argv.includes("--in-process");
const profileAt = process.argv.indexOf("--cpu-prof");
const profileDir = profileAt > 0 ? process.argv[profileAt + 1] : undefined;

const server = Bun.spawn([BUN, join(import.meta.dir, "scan-web-server.ts")], {
  stdout: "pipe",
  stderr: "inherit",
});
const reader = (server.stdout as ReadableStream<Uint8Array>).getReader();
let line = "";
while (!line.includes("\n")) {
  const { value, done } = await reader.read();
  if (done) throw new Error("the fixture web did not start");
  line += new TextDecoder().decode(value);
}
const web = JSON.parse(line) as {
  resolver: ScanOptions["resolver"];
  ports: ScanOptions["ports"];
  ca: string;
};
const options: ScanOptions = {
  resolver: web.resolver,
  ports: web.ports,
  ca: [web.ca],
  allowPrivateTargets: true,
  delayMs: 0,
};
const domains = Array.from({ length: count }, (_, i) => `u${String(i).padStart(5, "0")}.bench.test`);

let peak = rssOf(process.pid) ?? 0;
const samples: number[] = [];
const sampler = setInterval(() => {
  const rss = rssOf(process.pid) ?? 0;
  peak = Math.max(peak, rss);
  samples.push(rss);
}, 100);

/** CPU seconds of this process's children that have exited and been waited for (`cutime` + `cstime`). */
const reapedChildrenCpu = () => {
  const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1]?.split(" ") ?? [];
  return (Number(fields[13]) + Number(fields[14])) / 100;
};
const cpu0 = process.cpuUsage();
const children0 = reapedChildrenCpu();
const serverCpu = () => {
  // utime + stime of the fixture web, in clock ticks (100 a second on Linux).
  const fields = readFileSync(`/proc/${server.pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
};
const serverCpu0 = serverCpu();
let completed = 0;
let failed = 0;
const reasons = new Map<string, number>();
const t0 = performance.now();
// As `unirank scan` runs: with the memory steward at its default headroom.
const stopSteward = startMemorySteward(32);
const processes = inProcess
  ? null
  : new ScanProcesses({
      size: concurrency,
      settings: options,
      command: profileDir
        ? [BUN, "--cpu-prof", `--cpu-prof-dir=${profileDir}`, ...scanProcessCommand().slice(1)]
        : undefined,
    });
const runner = processes ? processes.scan : inProcessRunner(options);
if (withDb) {
  const dir = mkdtempSync(join(tmpdir(), "unirank-bench-scan-"));
  const opened = await openDatabase(join(dir, "scan.db"));
  await migrate(opened.db);
  await writeRecords(
    opened.db,
    domains.map((domain) => ({ type: "university" as const, domain, name: domain, country: "NL" })),
  );
  const summary = await runScans(
    opened.db,
    domains.map((domain) => ({ domain })),
    {
      scan: runner,
      concurrency,
      onScan: (_, o) => {
        if (o.failure_reason) reasons.set(o.failure_reason, (reasons.get(o.failure_reason) ?? 0) + 1);
      },
    },
  );
  completed = summary.completed;
  failed = summary.failed;
  await opened.close();
  rmSync(dir, { recursive: true, force: true });
} else {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = next++; i < domains.length; i = next++) {
        const o = await runner({ domain: domains[i] as string }, { startedAt: new Date() });
        if (o.status === "completed") completed++;
        else {
          failed++;
          reasons.set(o.failure_reason ?? "", (reasons.get(o.failure_reason ?? "") ?? 0) + 1);
        }
      }
    }),
  );
}
const seconds = (performance.now() - t0) / 1000;
stopSteward();
await processes?.close();
const cpu = process.cpuUsage(cpu0);
const parentCpu = (cpu.user + cpu.system) / 1e6;
const scannerCpu = parentCpu + (reapedChildrenCpu() - children0);
const webCpu = serverCpu() - serverCpu0;
clearInterval(sampler);
server.kill("SIGTERM");
await server.exited;

const mb = (b: number) => `${(b / 1024 / 1024).toFixed(0)} MB`;
const quarter = Math.floor(samples.length / 4);
const firstQuarter = Math.max(...samples.slice(0, Math.max(quarter, 1)));
const lastQuarter = Math.max(...samples.slice(-Math.max(quarter, 1)));
console.log(
  `scanned ${count} universities at concurrency ${concurrency}${withDb ? " through runScans into SQLite" : ""}: ` +
    `${completed} completed, ${failed} failed in ${seconds.toFixed(1)} s = ${(count / seconds).toFixed(1)} scans/s ` +
    (inProcess ? "(in this process)" : `(in up to ${concurrency} scan processes)`),
);
console.log(
  `${inProcess ? "scanner" : "parent (the scan processes not counted)"} RSS: peak ${mb(peak)}, highest sample in the first quarter ${mb(firstQuarter)}, in the last quarter ${mb(lastQuarter)}`,
);
console.log(
  `CPU: scanner ${scannerCpu.toFixed(1)} s (${((1000 * scannerCpu) / count).toFixed(1)} ms a scan, ${(count / scannerCpu).toFixed(0)} scans per CPU-second${inProcess ? "" : `; this process ${((1000 * parentCpu) / count).toFixed(1)} ms a scan`}), fixture web ${webCpu.toFixed(1)} s; load average ${loadavg()
    .map((x) => x.toFixed(1))
    .join(" ")}`,
);
for (const [reason, n] of reasons) console.log(`  ${n} × ${reason}`);
