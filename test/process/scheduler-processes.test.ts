import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeRecords } from "../../lib/index.ts";
import { openDatabase } from "../../src/db/open.ts";
import { tempDir } from "../support/databases.ts";
import { testPostgres } from "../support/postgres-server.ts";
import { page, routes, type ScanWeb, serveScanArgs, startScanWeb } from "../support/scan-web.ts";
import { runCli, type ServeProcess, startServe, until } from "../support/serve-process.ts";

/**
 * Real `unirank serve` processes scanning on one PostgreSQL database, with the real scanner, against the
 * scanner's loopback web: each due university scanned exactly once by two servers, a SIGTERM mid-scan, and a
 * SIGKILLed server's attempt closed once its lease expires.
 */
const available = await testPostgres();

const CAMPUS = 12;
const domains = Array.from({ length: CAMPUS }, (_, i) => `u${i + 1}.campus.test`);

describe.skipIf(!available.ok)("scanning serve processes on one PostgreSQL database", () => {
  let web: ScanWeb;
  let scanArgs: string[] = [];
  const running: ServeProcess[] = [];
  const logDir = tempDir();

  const database = async (name: string, universities: string[]) => {
    if (!available.ok) throw new Error("no PostgreSQL");
    const url = await available.server.createDatabase(name);
    expect((await runCli(["migrate", "--db", url])).code).toBe(0);
    const opened = await openDatabase(url);
    await writeRecords(
      opened.db,
      universities.map((domain) => ({ type: "university" as const, domain, name: domain, country: "FR" })),
    );
    return { url, opened };
  };
  const serve = async (url: string, extra: string[]) => {
    const s = await startServe([
      "--db",
      url,
      "--log-dir",
      logDir,
      "--scan-concurrency",
      "4",
      ...scanArgs,
      ...extra,
    ]);
    running.push(s);
    return s;
  };

  beforeAll(async () => {
    web = await startScanWeb([
      {
        domain: "campus.test",
        wildcard: true,
        https: routes({
          "/": (_, res) => page(res, "<html><head><title>Campus</title></head><body>hi</body></html>"),
        }),
      },
      { domain: "tarpit.test", tarpit: true },
    ]);
    scanArgs = serveScanArgs(web);
  }, 60_000);

  afterAll(async () => {
    await Promise.all(running.map((s) => s.stop()));
    await web?.close();
  });

  test("two servers scan each due university exactly once, between them", async () => {
    const { url, opened } = await database("unirank_sched_two", domains);
    try {
      // 12 universities every 40 s: each server may start one scan each 3.3 s; none is due again for 40 s.
      const a = await serve(url, ["--scan-every", "40s"]);
      const b = await serve(url, ["--scan-every", "40s"]);
      const scans = await until("every university scanned", async () => {
        const rows = await opened.db
          .selectFrom("scans as s")
          .innerJoin("universities as u", "u.id", "s.university_id")
          .select(["u.domain", "s.status"])
          .where("s.source_id", "like", "scheduler:%")
          .execute();
        const done = rows.filter((r) => r.status !== "running");
        return new Set(done.map((r) => r.domain)).size === CAMPUS && rows;
      });
      expect(scans.length).toBe(CAMPUS);
      expect(scans.every((s) => s.status === "completed")).toBe(true);
      const scannedBy = (s: ServeProcess) =>
        s
          .log()
          .split("\n")
          .filter((l) => l.includes('"message":"scan completed"'))
          .map((l) => JSON.parse(l).domain as string);
      // Each server logs a scan after storing it: wait for the last lines.
      await until(
        "every scan logged",
        async () => scannedBy(a).length + scannedBy(b).length >= CAMPUS,
        10_000,
      );
      const byA = scannedBy(a);
      const byB = scannedBy(b);
      expect(byA.length).toBeGreaterThan(0);
      expect(byB.length).toBeGreaterThan(0);
      expect([...byA, ...byB].sort()).toEqual([...domains].sort());
      // Each server's backlog is as of its last look for due universities.
      const health = await until("a's backlog to reach 0", async () => {
        const body = (await (await fetch(`${a.url}/health`)).json()) as {
          checks: { scanner: { status: string; running: number; backlog: number } };
        };
        return body.checks.scanner.backlog === 0 && body;
      });
      expect(health.checks.scanner.status).toBe("ok");
      const status = await runCli(["scan", "status", "--json", "--db", url, "--scan-every", "40s"]);
      expect(status.code).toBe(0);
      const report = JSON.parse(status.out);
      expect([report.due, report.completed, report.failed]).toEqual([0, CAMPUS, 0]);
      await Promise.all([a.stop(), b.stop()]);
    } finally {
      await opened.close();
    }
  }, 120_000);

  test("SIGTERM mid-scan stores the scan as failed with that reason", async () => {
    const { url, opened } = await database("unirank_sched_term", ["tarpit.test"]);
    try {
      const s = await serve(url, ["--scan-every", "1h"]);
      await until("the scan to start", async () =>
        opened.db.selectFrom("scan_claims").select("owner").where("owner", "is not", null).executeTakeFirst(),
      );
      const health = (await (await fetch(`${s.url}/health`)).json()) as {
        checks: { scanner: { running: number } };
      };
      expect(health.checks.scanner.running).toBe(1);
      s.proc.kill("SIGTERM");
      expect(await s.proc.exited).toBe(0);
      const scans = await opened.db.selectFrom("scans").select(["status", "source_id"]).execute();
      expect(scans.map((r) => r.status)).toEqual(["failed"]);
      const claim = await opened.db.selectFrom("scan_claims").selectAll().executeTakeFirstOrThrow();
      expect([claim.owner, claim.last_status]).toEqual([null, "failed"]);
      expect(claim.last_error).toContain("server stopped (SIGTERM)");
      const status = await runCli(["scan", "status", "--db", url]);
      expect(status.out).toContain("tarpit.test: ");
      expect(status.out).toContain("server stopped (SIGTERM)");
    } finally {
      await opened.close();
    }
  }, 60_000);

  test("a SIGKILLed server's attempt is closed as failed by another server when its lease expires", async () => {
    const { url, opened } = await database("unirank_sched_kill", ["tarpit.test"]);
    try {
      const lease = ["--scan-every", "1h", "--scan-lease", "3s"];
      const dead = await serve(url, lease);
      const first = await until("the first claim", async () =>
        opened.db.selectFrom("scan_claims").selectAll().where("owner", "is not", null).executeTakeFirst(),
      );
      dead.proc.kill("SIGKILL");
      await dead.proc.exited;
      const heir = await serve(url, lease);
      // The scan is stored failed first, then the claim freed (two writes): wait for the second.
      const claim = await until(
        "the dead server's attempt closed",
        async () =>
          opened.db
            .selectFrom("scan_claims")
            .selectAll()
            .where("owner", "is", null)
            .where("last_status", "=", "failed")
            .executeTakeFirst(),
        30_000,
      );
      const failed = await opened.db
        .selectFrom("scans")
        .select("status")
        .where("source_id", "=", first.attempt_id)
        .executeTakeFirstOrThrow();
      expect(failed.status).toBe("failed");
      // Closed as a failed attempt: retried after the retry delay, like any failure.
      expect([claim.owner, claim.last_status, claim.last_attempt_at]).toEqual([
        null,
        "failed",
        first.started_at,
      ]);
      expect(claim.last_error).toBe(`lease expired: ${first.owner} stopped before finishing the scan`);
      expect(heir.log()).toContain("lease expired");
      await heir.stop();
    } finally {
      await opened.close();
    }
  }, 60_000);
});
