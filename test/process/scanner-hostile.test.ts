import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { migrate, writeRecords } from "../../lib/index.ts";
import { openDatabase } from "../../src/db/open.ts";
import { tempDir } from "../support/databases.ts";
import { HOSTILE_SITES } from "../support/hostile-web.ts";
import { type HostileWebProcess, spawnHostileWeb } from "../support/hostile-web-process.ts";
import { runCli, type ServeProcess, startServe } from "../support/serve-process.ts";

/**
 * Scanning does not stall serving: a real `serve --scan-every` scans hostile sites (1-byte chunks, 5 MiB of nested
 * HTML, a 1 GiB Content-Length) over and over while requests arrive at a steady pace; each scan runs in a scan
 * process of its own, so the API keeps answering. A scan process that grows past its memory bound is stopped and
 * its scan fails, saying so.
 */

let web: HostileWebProcess;
let dir: string;
const running: ServeProcess[] = [];
let webArgs: string[] = [];

beforeAll(async () => {
  web = await spawnHostileWeb();
  dir = tempDir("unirank-hostile-");
  webArgs = [`${web.resolver.host}:${web.resolver.port}`, `${web.ports.http},${web.ports.https}`];
}, 60_000);

afterAll(async () => {
  await Promise.all(running.map((s) => s.stop()));
  await web?.stop();
  rmSync(dir, { recursive: true, force: true });
}, 60_000);

async function database(name: string, domains: readonly string[]) {
  const path = join(dir, `${name}.db`);
  const opened = await openDatabase(path);
  await migrate(opened.db);
  await writeRecords(
    opened.db,
    domains.map((domain) => ({ type: "university" as const, domain, name: domain, country: "FR" })),
  );
  return { path, opened };
}

/** Fires `perSecond` requests a second for `seconds`, each on its own (a held server delays every one). */
async function paced(url: string, perSecond: number, seconds: number): Promise<number[]> {
  const times: Promise<number>[] = [];
  const start = performance.now();
  for (let i = 0; i < perSecond * seconds; i++) {
    const due = start + (i * 1000) / perSecond;
    await Bun.sleep(Math.max(0, due - performance.now()));
    times.push(
      (async () => {
        const t = performance.now();
        const res = await fetch(url);
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
        return performance.now() - t;
      })(),
    );
  }
  return (await Promise.all(times)).sort((a, b) => a - b);
}

const p99 = (sorted: number[]) => sorted[Math.min(sorted.length - 1, Math.floor(0.99 * sorted.length))] ?? 0;

/** CPU seconds a process has used (utime + stime). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const serveArgs = (path: string) => ["--db", path, "--log-dir", join(dir, "logs"), "--rate-limit", "0"];

test("while serve scans the hostile sites, its API answers as fast as a server that does not scan", async () => {
  const quietDb = await database("quiet", HOSTILE_SITES);
  const { path, opened } = await database("serve", HOSTILE_SITES);
  try {
    // The machine's own tail, measured at the same moments: a server on the same data that does not scan.
    const quiet = await startServe(serveArgs(quietDb.path));
    running.push(quiet);
    const s = await startServe([
      ...serveArgs(path),
      "--scan-every",
      "5s",
      "--scan-concurrency",
      "4",
      "--probe-every",
      "0",
      "--scan-resolver",
      webArgs[0] as string,
      "--scan-ports",
      webArgs[1] as string,
      "--scan-allow-private-targets",
    ]);
    running.push(s);
    const finished = async () =>
      opened.db
        .selectFrom("scans as s")
        .innerJoin("universities as u", "u.id", "s.university_id")
        .select(["u.domain", "s.status"])
        .where("s.status", "!=", "running")
        .execute();
    const hitsBefore = new Map(HOSTILE_SITES.map((site) => [site, web.hits(site)]));
    const deadline = Date.now() + 60_000;
    while (web.hits("drip.test") === hitsBefore.get("drip.test") && Date.now() < deadline)
      await Bun.sleep(50);
    const path_ = "/api/v1/universities?per_page=5";
    await Promise.all([paced(`${quiet.url}${path_}`, 20, 2), paced(`${s.url}${path_}`, 20, 2)]);
    const cpu0 = cpuSeconds(s.proc.pid);
    const t0 = performance.now();
    const [quietTimes, times] = await Promise.all([
      paced(`${quiet.url}${path_}`, 20, 15),
      paced(`${s.url}${path_}`, 20, 15),
    ]);
    const serveCpuShare = (cpuSeconds(s.proc.pid) - cpu0) / ((performance.now() - t0) / 1000);
    console.log(
      `[hostile scans] ${times.length} requests at 20/s to each server (ms): not scanning p50 ${quietTimes[150]?.toFixed(1)} ` +
        `p99 ${p99(quietTimes).toFixed(1)}; scanning p50 ${times[150]?.toFixed(1)} p99 ${p99(times).toFixed(1)} ` +
        `max ${times.at(-1)?.toFixed(1)}; the scanning server's own CPU ${(100 * serveCpuShare).toFixed(0)} % of a core`,
    );
    // The hostile sites were being scanned the whole time, in the scan processes: not by serve's thread.
    for (const site of HOSTILE_SITES) expect(web.hits(site)).toBeGreaterThan(hitsBefore.get(site) ?? 0);
    expect(serveCpuShare).toBeLessThan(0.1);
    // The target, p99 < 50 ms, on top of what this machine gives a server that does not scan.
    expect(p99(times)).toBeLessThan(50 + p99(quietTimes));
    await quiet.stop();
    // Each hostile site is read up to the byte cap and scored.
    const done = Date.now() + 90_000;
    let rows = await finished();
    while (!HOSTILE_SITES.every((site) => rows.some((r) => r.domain === site)) && Date.now() < done) {
      await Bun.sleep(200);
      rows = await finished();
    }
    await s.stop();
    for (const site of HOSTILE_SITES)
      expect(rows.filter((r) => r.domain === site).map((r) => r.status)).toContain("completed");
  } finally {
    await opened.close();
    await quietDb.opened.close();
  }
}, 240_000);

test("a scan process past its memory bound is stopped and its scan fails, saying so; others complete", async () => {
  const { path, opened } = await database("bound", ["nested.test", "calm.test"]);
  try {
    const r = await runCli([
      "scan",
      "--all",
      "--db",
      path,
      "--memory",
      "160",
      "--resolver",
      webArgs[0] as string,
      "--ports",
      webArgs[1] as string,
      "--allow-private-targets",
    ]);
    expect(r.code).toBe(3);
    expect(r.out).toContain("nested.test: the scan used more than 160 MB of memory; its process was stopped");
    expect(r.out).toContain("1 completed, 1 failed");
    const scans = await opened.db
      .selectFrom("scans as s")
      .innerJoin("universities as u", "u.id", "s.university_id")
      .select(["u.domain", "s.status"])
      .orderBy("u.domain")
      .execute();
    expect(scans).toEqual([
      { domain: "calm.test", status: "completed" },
      { domain: "nested.test", status: "failed" },
    ]);
  } finally {
    await opened.close();
  }
}, 120_000);

test("unirank scan interrupted: the scan in its scan process stops and is stored as failed, exit 130", async () => {
  const { path, opened } = await database("interrupted", ["drip.test"]);
  try {
    const hits = web.hits("drip.test");
    const proc = Bun.spawn(
      [
        "bun",
        "src/cli.ts",
        "scan",
        "drip.test",
        "--db",
        path,
        "--resolver",
        webArgs[0] as string,
        "--ports",
        webArgs[1] as string,
        "--allow-private-targets",
      ],
      { cwd: join(import.meta.dir, "..", ".."), stdout: "pipe", stderr: "pipe" },
    );
    const deadline = Date.now() + 60_000;
    while (web.hits("drip.test") === hits && Date.now() < deadline) await Bun.sleep(50);
    proc.kill("SIGINT");
    const [code, out] = await Promise.all([proc.exited, new Response(proc.stdout).text()]);
    expect(code).toBe(130);
    expect(out).toContain("drip.test: scan stopped: interrupted");
    const scan = await opened.db.selectFrom("scans").select("status").executeTakeFirstOrThrow();
    expect(scan.status).toBe("failed");
  } finally {
    await opened.close();
  }
}, 120_000);
