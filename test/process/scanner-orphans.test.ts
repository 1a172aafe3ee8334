import { afterAll, beforeAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { migrate, writeRecords } from "../../lib/index.ts";
import { type OpenedDatabase, openDatabase } from "../../src/db/open.ts";
import { tempDir } from "../support/databases.ts";
import { type ScanWeb, serveScanArgs, startScanWeb } from "../support/scan-web.ts";
import { runCli, type ServeProcess, startServe, until } from "../support/serve-process.ts";

/**
 * Scans left `running` by a scanning `serve` that was killed (`kill -9`) are closed as failed, with the reason as
 * evidence, by whichever process comes next: a `serve` that does not scan, `scan status` or `unirank scan`. A
 * scan stopped by SIGTERM keeps its reason as evidence too.
 */

let web: ScanWeb;
let dir: string;
const running: ServeProcess[] = [];
let scanArgs: string[] = [];

beforeAll(async () => {
  web = await startScanWeb([{ domain: "tarpit.test", tarpit: true }]);
  dir = tempDir("unirank-orphans-");
  scanArgs = serveScanArgs(web);
}, 60_000);

afterAll(async () => {
  await Promise.all(running.map((s) => s.stop()));
  await web?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function database(name: string): Promise<{ path: string; opened: OpenedDatabase }> {
  const path = join(dir, `${name}.db`);
  const opened = await openDatabase(path);
  await migrate(opened.db);
  await writeRecords(opened.db, [
    { type: "university", domain: "tarpit.test", name: "Tarpit", country: "FR" },
  ]);
  return { path, opened };
}

async function serve(path: string, extra: string[]): Promise<ServeProcess> {
  const s = await startServe(["--db", path, "--log-dir", join(dir, "logs"), ...extra]);
  running.push(s);
  return s;
}

const scanRows = (opened: OpenedDatabase) =>
  opened.db
    .selectFrom("scans as s")
    .leftJoin("scan_evidence as e", "e.scan_id", "s.id")
    .select(["s.id", "s.status", "s.source_id", "s.started_at", "e.evidence"])
    .execute();

/** Starts a scanning serve with a 3 s lease, waits for its scan to be running, then kills it with SIGKILL. */
async function killMidScan(path: string, opened: OpenedDatabase) {
  const dead = await serve(path, [...scanArgs, "--scan-every", "1h", "--scan-lease", "3s"]);
  const claim = await until("the scan to start", async () =>
    opened.db.selectFrom("scan_claims").selectAll().where("owner", "is not", null).executeTakeFirst(),
  );
  await until("the running scan", async () => (await scanRows(opened)).length === 1);
  dead.proc.kill("SIGKILL");
  await dead.proc.exited;
  // Past the lease.
  await Bun.sleep(3_500);
  return claim;
}

test("a serve without --scan-every closes the killed server's scan as failed, the reason as evidence", async () => {
  const { path, opened } = await database("restart");
  try {
    const claim = await killMidScan(path, opened);
    expect((await scanRows(opened)).map((r) => r.status)).toEqual(["running"]);
    const api = await serve(path, []);
    const reason = `lease expired: ${claim.owner} stopped before finishing the scan`;
    const [scan] = await until("the scan closed", async () => {
      const rows = await scanRows(opened);
      return rows[0]?.status === "failed" && rows;
    });
    expect(scan?.started_at).toBe(claim.started_at as string);
    expect(JSON.parse(scan?.evidence ?? "null")?.failure_reason).toBe(reason);
    const body = (await (await fetch(`${api.url}/api/v2/scans/${scan?.id}`)).json()) as {
      data: { status: string; evidence: { failure_reason: string } | null };
    };
    expect(body.data.status).toBe("failed");
    expect(body.data.evidence?.failure_reason).toBe(reason);
    const status = await runCli(["scan", "status", "--json", "--db", path]);
    const report = JSON.parse(status.out);
    expect(report.running).toEqual([]);
    expect(report.last_failures).toEqual([{ domain: "tarpit.test", at: claim.started_at, reason }]);
    await api.stop();
  } finally {
    await opened.close();
  }
}, 90_000);

test("scan status closes the killed server's scan before it reports", async () => {
  const { path, opened } = await database("status");
  try {
    const claim = await killMidScan(path, opened);
    const status = await runCli(["scan", "status", "--json", "--db", path]);
    expect(status.code).toBe(0);
    const report = JSON.parse(status.out);
    const reason = `lease expired: ${claim.owner} stopped before finishing the scan`;
    expect([report.running, report.failed]).toEqual([[], 1]);
    expect(report.last_failures).toEqual([{ domain: "tarpit.test", at: claim.started_at, reason }]);
    expect((await scanRows(opened)).map((r) => r.status)).toEqual(["failed"]);
  } finally {
    await opened.close();
  }
}, 90_000);

test("a scan stopped by SIGTERM is failed with the reason as its evidence", async () => {
  const { path, opened } = await database("sigterm");
  try {
    const s = await serve(path, [...scanArgs, "--scan-every", "1h"]);
    await until("the running scan", async () => (await scanRows(opened)).length === 1);
    expect((await fetch(`${s.url}/health`)).status).toBeLessThan(600);
    s.proc.kill("SIGTERM");
    expect(await s.proc.exited).toBe(0);
    const [scan] = await scanRows(opened);
    expect(scan?.status).toBe("failed");
    // The stop's reason is the evidence; " (the scan did not end in time)" follows it when the scan process took
    // longer than the stop's grace to end (a loaded machine): either way the evidence says why.
    expect(JSON.parse(scan?.evidence ?? "null")?.failure_reason).toMatch(
      /^server stopped \(SIGTERM\)( \(the scan did not end in time\))?$/,
    );
  } finally {
    await opened.close();
  }
}, 90_000);
