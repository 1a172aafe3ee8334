import { afterAll, beforeAll, beforeEach, expect, test } from "bun:test";
import { sql } from "kysely";
import {
  closeExpiredLeases,
  type DB,
  failedOutcome,
  ScanScheduler,
  type SchedulerOptions,
  scanStatus,
  writeRecords,
} from "../../lib/index.ts";
import { claimDueScans, ensureClaimRows } from "../../lib/scanner/scheduler/claims.ts";
import { isoTimestamp } from "../../lib/time/format.ts";
import { availabilityProbe } from "../../src/scanner/availability-probe.ts";
import { describeEachDatabase } from "../support/databases.ts";
import { fixtureScan, type ScanSites, startScanSites } from "../support/scan-sites.ts";
import { until } from "../support/until.ts";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const T0 = new Date("2026-11-20T00:00:00Z");

/** A clock the test moves by hand. */
function handClock(start = T0) {
  let now = start.getTime();
  const clock = () => new Date(now);
  return Object.assign(clock, {
    set: (d: Date) => {
      now = d.getTime();
    },
    advance: (ms: number) => {
      now += ms;
    },
  });
}

const at = (ms: number) => new Date(T0.getTime() + ms);

async function universities(db: DB, domains: string[], scannedAgo: Record<string, number> = {}) {
  await writeRecords(
    db,
    [
      ...domains.map((domain) => ({ type: "university" as const, domain, name: domain, country: "FR" })),
      ...Object.entries(scannedAgo).map(([domain, ago]) => ({
        type: "scan" as const,
        source_id: `old-${domain}`,
        domain,
        status: "completed" as const,
        started_at: isoTimestamp(at(-ago)),
        completed_at: isoTimestamp(at(-ago)),
        overall_score: 50,
      })),
    ],
    { events: false },
  );
}

async function scansOf(db: DB) {
  return db
    .selectFrom("scans as s")
    .innerJoin("universities as u", "u.id", "s.university_id")
    .select([
      "u.domain",
      "s.status",
      "s.source_id",
      "s.completed_at",
      "s.tech_seo_score",
      "s.tech_uptime_score",
    ])
    .where("s.source_id", "like", "scheduler:%")
    .orderBy("s.id")
    .execute();
}

let sites: ScanSites;
beforeAll(() => {
  sites = startScanSites();
});
afterAll(() => sites.stop());

describeEachDatabase("scan scheduler", (get) => {
  const clock = handClock();
  let made: ScanScheduler[] = [];
  const scheduler = (options: Partial<SchedulerOptions> = {}, db = get().db) => {
    const s = new ScanScheduler(db, {
      owner: `server-${made.length + 1}`,
      everyMs: 30 * DAY,
      concurrency: 4,
      scan: fixtureScan(sites, clock),
      clock,
      // The hand clock jumps by hours or stands still: look for due universities at every tick.
      recheckMs: 0,
      ...options,
    });
    made.push(s);
    return s;
  };
  beforeEach(async () => {
    await get().reset();
    clock.set(T0);
    sites.gets.clear();
    sites.heads.clear();
    made = [];
  });

  test("due order: never scanned first, then the oldest latest scan; recent ones are not due", async () => {
    await universities(get().db, ["d.test", "c.test", "b.test", "a.test", "fictional.example"], {
      "b.test": 40 * DAY,
      "c.test": 35 * DAY,
      "d.test": 1 * DAY,
    });
    await ensureClaimRows(get().db);
    const claims = await claimDueScans(get().db, {
      now: T0,
      everyMs: 30 * DAY,
      retryMs: DAY,
      owner: "x",
      limit: 10,
      leaseMs: HOUR,
      newAttemptId: () => crypto.randomUUID(),
    });
    // The demo's reserved `.example` names are never scanned.
    expect(claims.map((c) => c.domain)).toEqual(["a.test", "b.test", "c.test"]);
    const again = await claimDueScans(get().db, {
      now: T0,
      everyMs: 30 * DAY,
      retryMs: DAY,
      owner: "y",
      limit: 10,
      leaseMs: HOUR,
      newAttemptId: () => crypto.randomUUID(),
    });
    expect(again).toEqual([]);
  });

  test("scans are spread over the interval and a university is rescanned only once its interval has passed", async () => {
    await universities(get().db, ["a.test", "b.test", "c.test", "d.test"]);
    // Four universities every 4 h: one scan an hour.
    const s = scheduler({ everyMs: 4 * HOUR });
    await s.tick();
    await s.settle();
    expect((await scansOf(get().db)).map((r) => r.domain)).toEqual(["a.test"]);
    clock.set(at(HOUR / 2));
    await s.tick();
    await s.settle();
    expect((await scansOf(get().db)).length).toBe(1);
    expect(s.state().backlog).toBe(3);
    clock.set(at(HOUR));
    await s.tick();
    await s.settle();
    clock.set(at(3 * HOUR));
    await s.tick();
    await s.settle();
    const scans = await scansOf(get().db);
    expect(scans.map((r) => r.domain).sort()).toEqual(["a.test", "b.test", "c.test", "d.test"]);
    expect(scans.slice(0, 2).map((r) => r.domain)).toEqual(["a.test", "b.test"]);
    expect(scans.every((r) => r.status === "completed" && r.tech_seo_score === 100)).toBe(true);
    expect(s.state().backlog).toBe(0);
    clock.set(at(4 * HOUR - 1000));
    await s.tick();
    await s.settle();
    expect((await scansOf(get().db)).length).toBe(4);
    clock.set(at(4 * HOUR));
    await s.tick();
    await s.settle();
    const rescanned = await scansOf(get().db);
    expect(rescanned.length).toBe(5);
    expect(rescanned[4]?.domain).toBe("a.test");
    const latest = await get()
      .db.selectFrom("latest_scans as l")
      .innerJoin("universities as u", "u.id", "l.university_id")
      .select(["u.domain", "l.scan_count", "l.completed_at"])
      .where("u.domain", "=", "a.test")
      .executeTakeFirstOrThrow();
    expect(latest).toEqual({ domain: "a.test", scan_count: 2, completed_at: isoTimestamp(at(4 * HOUR)) });
  });

  test("after a look that found nothing due, the next claim waits for the recheck", async () => {
    await universities(get().db, ["late.test"], { "late.test": 30 * DAY - 5000 });
    const s = scheduler({ recheckMs: 15_000 });
    await s.tick();
    expect((await scansOf(get().db)).length).toBe(0);
    clock.set(at(10_000));
    await s.tick();
    expect((await scansOf(get().db)).length).toBe(0);
    clock.set(at(15_000));
    await s.tick();
    await s.settle();
    expect((await scansOf(get().db)).map((r) => r.domain)).toEqual(["late.test"]);
  });

  test("two schedulers on one database scan each due university exactly once", async () => {
    const domains = Array.from({ length: 24 }, (_, i) => `u${String(i).padStart(2, "0")}.test`);
    await universities(get().db, domains);
    // A second handle where the kind allows one (a second SQLite connection, a second PostgreSQL pool).
    const second = await secondHandle(get());
    try {
      // 24 universities every 48 h: each scheduler may start 3 scans each 6 h round; all are done within 24 h,
      // and none is due again before 48 h.
      const a = scheduler({ everyMs: 48 * HOUR, concurrency: 3 });
      const b = scheduler({ everyMs: 48 * HOUR, concurrency: 3 }, second.db);
      for (let round = 0; round < 7; round++) {
        clock.advance(6 * HOUR);
        await Promise.all([a.tick(), b.tick()]);
        await Promise.all([a.settle(), b.settle()]);
      }
      const scans = await scansOf(get().db);
      expect(scans.map((r) => r.domain).sort()).toEqual(domains);
      expect(domains.every((d) => sites.gets.get(d) === 1)).toBe(true);
      expect(a.state().completed).toBeGreaterThan(0);
      expect(b.state().completed).toBeGreaterThan(0);
    } finally {
      await second.close();
    }
  }, 60_000);

  test("a stopped server's expired lease is closed: its scan failed with the reason as evidence, retried later", async () => {
    await universities(get().db, ["gone.test"]);
    sites.hold("gone.test");
    const dead = scheduler({ owner: "dead-server", leaseMs: HOUR });
    await dead.tick();
    await sites.arrived("gone.test");
    const heir = scheduler({ owner: "heir", leaseMs: HOUR });
    clock.set(at(HOUR - 1000));
    await heir.tick();
    expect(heir.state().running).toBe(0);
    expect((await scansOf(get().db)).map((r) => r.status)).toEqual(["running"]);
    clock.set(at(HOUR));
    await heir.tick();
    // Closed as failed at expiry, not scanned again before the retry delay.
    expect(heir.state().running).toBe(0);
    const reason = "lease expired: dead-server stopped before finishing the scan";
    expect(heir.state().last_error).toEqual({ at: isoTimestamp(at(HOUR)), domain: "gone.test", reason });
    const failed = await get()
      .db.selectFrom("scans as s")
      .innerJoin("scan_evidence as e", "e.scan_id", "s.id")
      .select(["s.status", "s.started_at", "s.completed_at", "e.evidence"])
      .executeTakeFirstOrThrow();
    expect([failed.status, failed.started_at, failed.completed_at]).toEqual([
      "failed",
      isoTimestamp(T0),
      isoTimestamp(at(HOUR)),
    ]);
    expect(JSON.parse(failed.evidence).failure_reason).toBe(reason);
    const claim = await get().db.selectFrom("scan_claims").selectAll().executeTakeFirstOrThrow();
    expect([claim.owner, claim.last_status, claim.last_error, claim.last_attempt_at]).toEqual([
      null,
      "failed",
      reason,
      isoTimestamp(T0),
    ]);
    // The dead server's late result is not stored over the closed scan.
    sites.release("gone.test");
    await dead.settle();
    expect((await scansOf(get().db)).map((r) => r.status)).toEqual(["failed"]);
    clock.set(at(DAY));
    await heir.tick();
    await heir.settle();
    expect((await scansOf(get().db)).map((r) => [r.domain, r.status])).toEqual([
      ["gone.test", "failed"],
      ["gone.test", "completed"],
    ]);
  });

  test("with no scheduler running, closeExpiredLeases closes an orphaned scan once; status stays coherent", async () => {
    await universities(get().db, ["flaky.test"]);
    const rule = { everyMs: 30 * DAY, retryMs: DAY };
    // flaky.test failed once; two days later an attempt of a server that then died (its scan left running).
    const first = scheduler({
      ...rule,
      owner: "first",
      scan: async () => failedOutcome("no answer", isoTimestamp(clock()), isoTimestamp(clock())),
    });
    await first.tick();
    await first.settle();
    clock.set(at(2 * DAY));
    sites.hold("flaky.test");
    const dying = scheduler({ ...rule, owner: "dying", leaseMs: HOUR });
    await dying.tick();
    await sites.arrived("flaky.test");
    const during = await scanStatus(get().db, { ...rule, now: clock() });
    expect(during.running.map((r) => [r.domain, r.started_at])).toEqual([
      ["flaky.test", isoTimestamp(at(2 * DAY))],
    ]);
    // The last failure is the finished attempt's, with that attempt's own time.
    expect(during.last_failures).toEqual([
      { domain: "flaky.test", at: isoTimestamp(T0), reason: "no answer" },
    ]);
    clock.set(at(2 * DAY + HOUR));
    const reason = "lease expired: dying stopped before finishing the scan";
    const closed = await closeExpiredLeases(get().db, { now: clock() });
    expect(closed.map((c) => [c.domain, c.reason])).toEqual([["flaky.test", reason]]);
    expect(await closeExpiredLeases(get().db, { now: clock() })).toEqual([]);
    const running = await get().db.selectFrom("scans").select("id").where("status", "=", "running").execute();
    expect(running).toEqual([]);
    const after = await scanStatus(get().db, { ...rule, now: clock() });
    expect(after.running).toEqual([]);
    expect(after.last_failures).toEqual([{ domain: "flaky.test", at: isoTimestamp(at(2 * DAY)), reason }]);
    expect(after.failed).toBe(2);
    sites.release("flaky.test");
    await dying.settle();
  });

  test("stopping mid-scan stores the scan as failed with the reason and frees the claim", async () => {
    await universities(get().db, ["slow.test"]);
    sites.hold("slow.test");
    const s = scheduler();
    await s.tick();
    await sites.arrived("slow.test");
    expect(s.state().running).toBe(1);
    expect(await get().db.selectFrom("scans").select(["status", "completed_at"]).execute()).toEqual([
      { status: "running", completed_at: null },
    ]);
    await s.stop("server stopped (SIGTERM)");
    sites.release("slow.test");
    expect(s.state().running).toBe(0);
    const scans = await get().db.selectFrom("scans").select(["status", "completed_at"]).execute();
    expect(scans).toEqual([{ status: "failed", completed_at: isoTimestamp(T0) }]);
    const claim = await get().db.selectFrom("scan_claims").selectAll().executeTakeFirstOrThrow();
    expect([claim.owner, claim.last_status, claim.last_error]).toEqual([
      null,
      "failed",
      "server stopped (SIGTERM)",
    ]);
    expect(s.state().last_error?.reason).toBe("server stopped (SIGTERM)");
    await s.tick();
    expect(s.state().running).toBe(0);
  });

  test("a scan finished while the storage refuses writes is kept and stored at a later tick, not lost", async () => {
    const { db, kind } = get();
    await universities(db, ["slow.test"]);
    sites.hold("slow.test");
    const s = scheduler();
    await s.tick();
    await sites.arrived("slow.test");
    // The storage stops taking writes to scans (as a full disk does) while the scan runs.
    if (kind === "sqlite") {
      await sql`create trigger refuse_scans_update before update on scans begin select raise(abort, 'database or disk is full'); end`.execute(
        db,
      );
    } else {
      await sql`create function refuse_scans() returns trigger language plpgsql as $$ begin raise exception 'could not extend file' using errcode = 'disk_full'; end $$`.execute(
        db,
      );
      await sql`create trigger refuse_scans_update before update on scans for each row execute function refuse_scans()`.execute(
        db,
      );
    }
    sites.release("slow.test");
    // Each tick tries again; the result stays in memory meanwhile (a bounded poll: the fixture site answers over
    // loopback, and the scan ends when its answer has arrived).
    for (let i = 0; i < 50 && s.state().unstored === 0; i++) {
      await Bun.sleep(10);
      await s.tick();
    }
    expect(s.state()).toMatchObject({ running: 1, unstored: 1 });
    expect(s.state().last_error?.reason).toMatch(
      /^scan not stored yet, retrying: .*(full|could not extend file)/,
    );
    await s.tick();
    expect(s.state().unstored).toBe(1);
    expect(await db.selectFrom("scans").select("status").execute()).toEqual([{ status: "running" }]);
    await sql`drop trigger refuse_scans_update${sql.raw(kind === "sqlite" ? "" : " on scans")}`.execute(db);
    // The retry started by the tick above may still be failing on the trigger when it is dropped; it then waits
    // for the next tick. Ticks until the storage has taken the scan (bounded).
    for (let i = 0; i < 100 && s.state().unstored > 0; i++) {
      await s.tick();
      await Bun.sleep(10);
    }
    await s.settle();
    expect(s.state()).toMatchObject({ running: 0, unstored: 0, completed: 1 });
    expect(await db.selectFrom("scans").select("status").execute()).toEqual([{ status: "completed" }]);
    const claim = await db.selectFrom("scan_claims").selectAll().executeTakeFirstOrThrow();
    expect([claim.owner, claim.last_status]).toEqual([null, "completed"]);
    if (kind !== "sqlite") await sql`drop function refuse_scans()`.execute(db);
  }, 30_000);

  test("a scan that ignores the stop is stored as failed and its university released", async () => {
    await universities(get().db, ["deaf.test"]);
    sites.hold("deaf.test");
    const s = scheduler({
      // Reads the page without the signal: it cannot be aborted.
      scan: (target, options) => fixtureScan(sites, clock)(target, options, new AbortController().signal),
    });
    await s.tick();
    await sites.arrived("deaf.test");
    await s.stop("server stopped (SIGTERM)", 0);
    sites.release("deaf.test");
    await s.settle();
    const scans = await get().db.selectFrom("scans").select("status").execute();
    expect(scans).toEqual([{ status: "failed" }]);
    const claim = await get().db.selectFrom("scan_claims").selectAll().executeTakeFirstOrThrow();
    expect([claim.owner, claim.last_attempt_at]).toEqual([null, null]);
    const due = await scanStatus(get().db, { now: clock(), everyMs: 30 * DAY, retryMs: DAY });
    expect(due.due).toBe(1);
  });

  test("scan status: due, running, completed and failed in the period, next due, last failures", async () => {
    await universities(get().db, ["fresh.test", "never.test", "broken.test"], { "fresh.test": 10 * DAY });
    const rule = { everyMs: 30 * DAY, retryMs: DAY };
    const before = await scanStatus(get().db, { ...rule, now: T0 });
    expect([before.due, before.running, before.completed, before.failed]).toEqual([2, [], 1, 0]);
    expect(before.next_due).toBe(isoTimestamp(T0));
    sites.hold("never.test");
    const s = scheduler({
      ...rule,
      concurrency: 2,
      scan: async (target, options, signal) =>
        target.domain === "broken.test"
          ? {
              status: "failed",
              started_at: isoTimestamp(clock()),
              completed_at: isoTimestamp(clock()),
              failure_reason: "no answer",
              scores: {},
            }
          : fixtureScan(sites, clock)(target, options, signal),
    });
    await s.tick();
    clock.set(at(10 * DAY));
    await s.tick();
    await sites.arrived("never.test");
    // The failed attempt has ended once it is stored and its claim freed: only the held one is left in memory.
    await until("the failed attempt's end", () => s.state().failed > 0 && s.state().running === 1, 10_000, 5);
    const during = await scanStatus(get().db, { ...rule, now: clock() });
    expect(during.running.map((r) => [r.domain, r.owner])).toEqual([["never.test", "server-1"]]);
    expect([during.due, during.completed, during.failed]).toEqual([0, 1, 1]);
    expect(during.last_failures).toEqual([
      { domain: "broken.test", at: isoTimestamp(at(10 * DAY)), reason: "no answer" },
    ]);
    // Nothing due: the next is the failed one's retry, a day after its attempt.
    expect(during.next_due).toBe(isoTimestamp(at(11 * DAY)));
    sites.release("never.test");
    await s.settle();
    const after = await scanStatus(get().db, { ...rule, now: clock() });
    expect([after.running.length, after.completed, after.failed]).toEqual([0, 2, 1]);
  });

  test("uptime: probes that fail and succeed in a known pattern feed the next scan", async () => {
    await universities(get().db, ["up.test"]);
    // Every third HEAD gets a 503; the others a 200.
    sites.headPattern.set("up.test", (n) => (n % 3 === 2 ? 503 : 200));
    const calls: { domain: string; availability: { answered: number; total: number } }[] = [];
    const s = scheduler({
      everyMs: 12 * HOUR,
      probeEveryMs: HOUR,
      probe: availabilityProbe({ url: sites.url, allowPrivateTargets: true, delayMs: 0 }),
      scan: fixtureScan(sites, clock, calls),
    });
    for (let h = 0; h <= 12; h++) {
      clock.set(at(h * HOUR));
      await s.tick();
      await s.settle();
    }
    // Probes at 0..11 h count for the scan claimed at 12 h: 12 made, 4 of them (n = 2, 5, 8, 11) failed.
    expect(calls.map((c) => c.availability)).toEqual([
      { answered: 0, total: 0 },
      { answered: 8, total: 12 },
    ]);
    const scans = await scansOf(get().db);
    expect(scans.map((r) => r.tech_uptime_score)).toEqual([null, 67]);
    const probes = await get()
      .db.selectFrom("availability_probes")
      .select(["answered", "status_code"])
      .execute();
    expect(probes.length).toBe(13);
    expect(probes.filter((p) => p.answered === 0).every((p) => p.status_code === 503)).toBe(true);
  });
});

/**
 * A second handle on the same database, as a second server would hold. PGlite (in-process) shares its one, and so
 * does SQLite: its busy wait blocks the thread, so two writers on one file belong in two processes.
 */
async function secondHandle(t: { kind: string; db: DB; location?: string }) {
  if (t.kind === "postgres" && t.location) {
    const { openPostgres } = await import("../../src/db/postgres.ts");
    return openPostgres(t.location, { poolSize: 4 });
  }
  return { db: t.db, close: async () => {} };
}
