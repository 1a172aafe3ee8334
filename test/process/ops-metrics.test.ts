import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { addReceiver, migrate, writeRecords } from "../../lib/index.ts";
import { isoTimestamp, sqlTimestamp } from "../../lib/time/format.ts";
import pkg from "../../package.json" with { type: "json" };
import { openSqlite } from "../../src/db/open.ts";
import { tempDir } from "../support/databases.ts";
import { parseExposition } from "../support/prometheus-text.ts";
import { page, routes, type ScanWeb, serveScanArgs, startScanWeb } from "../support/scan-web.ts";
import { runCli, type ServeProcess, startServe } from "../support/serve-process.ts";
import { until } from "../support/until.ts";

/**
 * `/metrics` of a real `unirank serve` (its own listener), parsed with a Prometheus text-format parser after a known
 * mix of work: scans by the scheduler with the real scanner over the loopback fixture web (two complete, one
 * fails, one claim of a dead server taken over), webhook deliveries to a receiver that accepts and one that
 * refuses, and requests with a key, anonymous, refused by the rate limit, not found and unrouted. Every counter
 * equals what was done; the access log has a line per request and never the key.
 */

const ANONYMOUS_LIMIT = 3;
const FILLER = 1200;
let dir: string;
let web: ScanWeb;
let serve: ServeProcess;
let metricsUrl: string;
let key: { id: number; key: string };
const received = { accepted: 0, refused: 0 };
let receivers: ReturnType<typeof Bun.serve>[] = [];

const scrape = async () => await parseExposition(await (await fetch(metricsUrl)).text());

beforeAll(async () => {
  dir = tempDir("unirank-metrics-");
  const db = join(dir, "u.db");
  web = await startScanWeb([
    {
      domain: "ok.test",
      https: routes({
        "/": (_, res) => page(res, "<html><head><title>OK</title></head><body>hi</body></html>"),
      }),
    },
    {
      domain: "taken.test",
      https: routes({
        "/": (_, res) => page(res, "<html><head><title>Taken</title></head><body>hi</body></html>"),
      }),
    },
  ]);
  /** A webhook receiver answering `status`, counting what it receives under `counter`. */
  const receiver = (status: number, counter: keyof typeof received) =>
    Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: async (r) => {
        await r.text();
        received[counter]++;
        return new Response(status === 200 ? "ok" : "no", { status });
      },
    });
  receivers = [receiver(200, "accepted"), receiver(500, "refused")];

  // Real universities (none of the demo), two receivers, and the claim of a server that died mid-scan.
  const opened = openSqlite(db);
  await migrate(opened.db);
  await writeRecords(
    opened.db,
    ["ok.test", "taken.test", "nowhere.test"].map((domain) => ({
      type: "university" as const,
      domain,
      name: domain,
      country: "FR",
    })),
  );
  // Universities scanned a moment ago, not due for an hour: the scheduler paces its scans by how many
  // universities there are (one every interval / count), so with these the three due ones start seconds apart.
  const at = sqlTimestamp(new Date());
  await writeRecords(
    opened.db,
    Array.from({ length: FILLER }, (_, i) => [
      { type: "university" as const, domain: `f${i}.filler.test`, name: `Filler ${i}`, country: "DE" },
      {
        type: "scan" as const,
        source_id: `filler-${i}`,
        domain: `f${i}.filler.test`,
        status: "completed" as const,
        started_at: at,
        completed_at: at,
        tech_seo_score: 50,
      },
    ]).flat(),
    { events: false },
  );
  for (const r of receivers)
    await addReceiver(opened.db, { url: `http://127.0.0.1:${r.port}/hook`, secret: "s3cret" });
  const taken = await opened.db
    .selectFrom("universities")
    .select("id")
    .where("domain", "=", "taken.test")
    .executeTakeFirstOrThrow();
  const past = isoTimestamp(new Date(Date.now() - 3_600_000));
  await opened.db
    .insertInto("scan_claims")
    .values({
      university_id: Number(taken.id),
      owner: "gone-host:1:dead",
      lease_until: past,
      attempt_id: "scheduler:dead-attempt",
      started_at: past,
      last_attempt_at: past,
    })
    .execute();
  await opened.close();

  const created = await runCli([
    "keys",
    "create",
    "metrics-test",
    "--rate-limit",
    "1000",
    "--json",
    "--db",
    db,
  ]);
  expect(created.code).toBe(0);
  key = JSON.parse(created.out);

  serve = await startServe([
    "--db",
    db,
    "--metrics-listen",
    "127.0.0.1:0",
    "--access-log",
    "--rate-limit",
    String(ANONYMOUS_LIMIT),
    "--allow-private-webhooks",
    "--scan-every",
    "1h",
    "--probe-every",
    "0",
    ...serveScanArgs(web),
  ]);
  metricsUrl = /"metrics":"([^"]+)"/.exec(serve.log())?.[1] ?? "";
  expect(metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
  // The work in the background is done: three scans of this server's own, one takeover, every delivery tried.
  let seen = "";
  await until(
    "scans and deliveries",
    async () => {
      const m = await scrape();
      seen = `scans ${m.value("unirank_scans_total", { outcome: "completed" })}/${m.value("unirank_scans_total", { outcome: "failed" })}, received ${received.accepted}/${received.refused}\n${serve.log()}`;
      return (
        m.value("unirank_scans_total", { outcome: "completed" }) === 2 &&
        m.value("unirank_scans_total", { outcome: "failed" }) === 1 &&
        received.accepted === 2 &&
        received.refused === 2 &&
        m.value("unirank_webhook_attempts_total", { result: "retry" }) === 2
      );
    },
    90_000,
    200,
  ).catch((e) => {
    throw new Error(`${(e as Error).message}: ${seen}`);
  });
}, 180_000);

afterAll(async () => {
  await serve?.stop();
  for (const r of receivers) r.stop(true);
  await web?.close();
  rmSync(dir, { recursive: true, force: true });
});

const get = async (path: string, withKey: boolean) => {
  const r = await fetch(`${serve.url}${path}`, withKey ? { headers: { "X-API-Key": key.key } } : {});
  await r.arrayBuffer();
  return r.status;
};

describe("/metrics after a known mix of work", () => {
  test("scans, takeovers, the scheduler's backlog and the webhook backlog", async () => {
    const m = await scrape();
    expect(m.type("unirank_scans_total")).toBe("counter");
    const completed = m.histogram("unirank_scan_duration_seconds", { outcome: "completed" });
    const failed = m.histogram("unirank_scan_duration_seconds", { outcome: "failed" });
    expect(completed?.count).toBe(2);
    expect(failed?.count).toBe(1);
    expect(completed?.sum).toBeGreaterThan(0);
    expect(m.value("unirank_scan_lease_takeovers_total")).toBe(1);
    expect(m.value("unirank_scan_backlog")).toBe(0);
    expect(m.value("unirank_scans_running")).toBe(0);
    // No request is waiting for its answer (the scrape is the metrics server's, not the API's).
    expect(m.type("unirank_http_requests_in_flight")).toBe("gauge");
    expect(m.value("unirank_http_requests_in_flight")).toBe(0);
    expect(m.value("unirank_webhook_attempts_total", { result: "delivered" })).toBe(received.accepted);
    expect(m.value("unirank_webhook_attempts_total", { result: "retry" })).toBe(received.refused);
    expect(m.value("unirank_webhook_attempts_total", { result: "failed" })).toBe(0);
    // The refused deliveries wait for their retry (a minute on): pending, and as old as the scans.
    expect(m.value("unirank_webhook_deliveries", { status: "pending" })).toBe(2);
    expect(m.value("unirank_webhook_deliveries", { status: "failed" })).toBe(0);
    expect(
      m.value("unirank_webhook_oldest_delivery_age_seconds", { status: "pending" }),
    ).toBeGreaterThanOrEqual(0);
    expect(m.value("unirank_webhook_oldest_delivery_age_seconds", { status: "failed" })).toBe(0);
    expect(m.value("unirank_database_up")).toBe(1);
    expect(m.value("unirank_health_check_ok", { check: "database" })).toBe(1);
    expect(m.value("unirank_health_check_ok", { check: "scanner" })).toBe(1);
    expect(m.value("process_resident_memory_bytes")).toBeGreaterThan(0);
    expect(m.value("unirank_build_info", { version: pkg.version })).toBe(1);
  });

  test("requests by route template, method and status; latency; rate-limit rejections; cache hits", async () => {
    const before = await scrape();
    const hits0 = before.value("unirank_response_cache_hits_total") ?? 0;
    const misses0 = before.value("unirank_response_cache_misses_total") ?? 0;
    const ids = await (
      await fetch(`${serve.url}/api/v1/universities?limit=1`, { headers: { "X-API-Key": key.key } })
    ).json();
    const id = (ids as { data: { id: number }[] }).data[0]?.id;

    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push(await get("/api/v1/rankings?limit=2", true));
    for (let i = 0; i < 3; i++) statuses.push(await get(`/api/v1/universities/${id}`, true));
    for (let i = 0; i < 2; i++) statuses.push(await get("/api/v1/universities/999999", true));
    statuses.push(await get("/no/such/path", false));
    statuses.push(await get("/api/v1/rankings?limit=2", false));
    for (let i = 0; i < 4; i++) statuses.push(await get("/api/v1/stats", false));
    expect(statuses).toEqual([
      200, 200, 200, 200, 200, 200, 200, 200, 404, 404, 404, 200, 200, 200, 429, 429,
    ]);

    const m = await scrape();
    const requests = (method: string, route: string, status: number) =>
      m.value("unirank_http_requests_total", { method, route, status: String(status) });
    expect(requests("GET", "/api/v1/rankings", 200)).toBe(6);
    // One of /api/v1/universities/:id was the id lookup above (the list route is its own).
    expect(requests("GET", "/api/v1/universities/:id", 200)).toBe(3);
    expect(requests("GET", "/api/v1/universities/:id", 404)).toBe(2);
    expect(requests("GET", "/api/v1/universities", 200)).toBe(1);
    expect(requests("GET", "unmatched", 404)).toBe(1);
    expect(requests("GET", "/api/v1/stats", 200)).toBe(2);
    expect(requests("GET", "/api/v1/stats", 429)).toBe(2);
    expect(m.type("unirank_http_request_duration_seconds")).toBe("histogram");
    const rankings = m.histogram("unirank_http_request_duration_seconds", {
      method: "GET",
      route: "/api/v1/rankings",
    });
    expect(rankings?.count).toBe(6);
    expect(rankings?.buckets["+Inf"]).toBe(6);
    expect(m.value("unirank_rate_limit_rejections_total", { policy: "per-ip" })).toBe(2);
    // Rankings: one miss, five hits (the anonymous one too); a university: one miss, two hits; the missing one:
    // two misses; the list: one miss; stats: the two admitted, one miss and one hit; refused ones never ask.
    expect((m.value("unirank_response_cache_hits_total") ?? 0) - hits0).toBe(5 + 2 + 1);
    expect((m.value("unirank_response_cache_misses_total") ?? 0) - misses0).toBe(1 + 1 + 2 + 1 + 1);
  });

  test("the access log has a line per request with the key's id, never the key", async () => {
    const lines = () =>
      serve
        .log()
        .split("\n")
        .filter((l) => l.includes('"message":"request"'))
        .map((l) => JSON.parse(l) as Record<string, unknown>);
    // Access lines are written in batches, within 250 ms.
    await until("the access lines", async () => lines().length >= 17, 5000);
    await Bun.sleep(300);
    const requests = lines();
    expect(requests.length).toBe(17);
    expect(serve.log()).not.toContain(key.key);
    const keyed = requests.filter((r) => r.key_id !== null);
    expect(keyed.length).toBe(11);
    for (const r of keyed) expect(r.key_id).toBe(key.id);
    for (const r of requests) {
      expect(Object.keys(r).sort()).toEqual(
        [
          "client",
          "duration_ms",
          "key_id",
          "level",
          "message",
          "method",
          "request_id",
          "route",
          "status",
          "time",
        ].sort(),
      );
      expect(r.client).toBe("127.0.0.1");
      expect(r.duration_ms).toBeGreaterThanOrEqual(0);
    }
    expect(requests.filter((r) => r.status === 429).map((r) => r.route)).toEqual([
      "/api/v1/stats",
      "/api/v1/stats",
    ]);
    expect(requests.some((r) => r.route === null && r.status === 404)).toBe(true);
  });

  test("metrics are served on their own address only", async () => {
    expect((await fetch(`${serve.url}/metrics`)).status).toBe(404);
    expect((await fetch(metricsUrl.replace("/metrics", "/other"))).status).toBe(404);
    const r = await fetch(metricsUrl);
    expect(r.headers.get("content-type")).toContain("text/plain");
  });
});
