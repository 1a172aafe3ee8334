import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { sql } from "kysely";
import { verifyWebhookSignature } from "../../lib/webhooks/receiver.ts";
import { openDatabase } from "../../src/db/open.ts";
import { tempDir } from "../support/databases.ts";
import { testPostgres } from "../support/postgres-server.ts";
import { runCli, type ServeProcess, startServe } from "../support/serve-process.ts";

/**
 * Several `unirank serve` processes on one PostgreSQL database behave as one service: the anonymous limit is
 * exact across them, and each webhook delivery is sent by exactly one of them.
 */
const available = await testPostgres();

describe.skipIf(!available.ok)("two serve processes on one PostgreSQL database", () => {
  let url = "";
  let servers: ServeProcess[] = [];
  const logDir = tempDir();

  beforeAll(async () => {
    if (!available.ok) return;
    url = await available.server.createDatabase("unirank_multi");
    // Migrated first, so the servers start on an existing (empty) schema rather than loading the demo data.
    const migrated = await runCli(["migrate", "--db", url]);
    expect(migrated.code).toBe(0);
    servers = await Promise.all(
      [1, 2].map(() =>
        startServe(["--db", url, "--rate-limit", "100", "--log-dir", logDir, "--allow-private-webhooks"]),
      ),
    );
  }, 120_000);

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
  });

  test("150 concurrent anonymous requests spread across both admit exactly 100", async () => {
    const responses = await Promise.all(
      Array.from({ length: 150 }, (_, i) =>
        fetch(`${servers[i % 2]?.url}/api/v1/universities?limit=1&n=${i}`).then(async (r) => ({
          status: r.status,
          server: i % 2,
          remaining: r.headers.get("x-ratelimit-remaining"),
          limit: r.headers.get("x-ratelimit-limit"),
          body: await r.text(),
        })),
      ),
    );
    const admitted = responses.filter((r) => r.status === 200);
    const refused = responses.filter((r) => r.status === 429);
    expect({ admitted: admitted.length, refused: refused.length }).toEqual({ admitted: 100, refused: 50 });
    // Both servers admitted some: the limit was shared, not per process.
    expect(new Set(admitted.map((r) => r.server)).size).toBe(2);
    // Every slot was handed out exactly once: the remaining counts of the admitted are 99..0, each once.
    const remaining = admitted.map((r) => Number(r.remaining)).sort((a, b) => a - b);
    expect(remaining).toEqual(Array.from({ length: 100 }, (_, i) => i));
    for (const r of refused) {
      expect(r.remaining).toBe("0");
      expect(JSON.parse(r.body).error.code).toBe("RATE_LIMITED");
    }
    // And the next request, on either server, is still refused.
    for (const s of servers) expect((await fetch(`${s.url}/api/v1/stats`)).status).toBe(429);
    // /health is never limited.
    for (const s of servers) expect((await fetch(`${s.url}/health`)).status).toBe(200);
  }, 60_000);

  test("ten imported completed scans with one receiver: ten deliveries, each received exactly once", async () => {
    const secret = "multi-server-secret";
    const received: { delivery: string; scanId: number; valid: boolean }[] = [];
    const receiver = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      async fetch(request) {
        const body = await request.text();
        const valid = await verifyWebhookSignature(
          secret,
          body,
          request.headers.get("x-webhook-signature") ?? "",
        );
        received.push({
          delivery: request.headers.get("x-webhook-delivery") ?? "",
          scanId: JSON.parse(body).data.scan_id,
          valid,
        });
        // A slow receiver, so both servers' workers are polling while deliveries are in flight.
        await Bun.sleep(50);
        return new Response(valid ? "ok" : "bad signature", { status: valid ? 200 : 403 });
      },
    });
    try {
      const added = await runCli([
        "webhooks",
        "add",
        `http://127.0.0.1:${receiver.port}/hook`,
        "--secret",
        secret,
        "--allow-private-webhooks",
        "--db",
        url,
      ]);
      expect(added.code).toBe(0);
      const file = join(tempDir(), "ten-scans.ndjson");
      const lines = [
        { type: "university", domain: "multi.example", name: "Multi Server University", country: "DE" },
        ...Array.from({ length: 10 }, (_, i) => ({
          type: "scan",
          source_id: `multi-${i}`,
          domain: "multi.example",
          status: "completed",
          started_at: `2026-11-0${(i % 9) + 1}T10:00:00+00:00`,
          completed_at: `2026-11-0${(i % 9) + 1}T11:00:0${i}+00:00`,
          overall_score: 50 + i,
        })),
      ];
      writeFileSync(file, `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
      const imported = await runCli(["import", file, "--db", url]);
      expect({ code: imported.code, err: imported.err }).toEqual({ code: 0, err: "" });

      const deadline = Date.now() + 30_000;
      while (received.length < 10 && Date.now() < deadline) await Bun.sleep(100);
      // Every delivery is recorded as delivered after one attempt: no worker has anything left to send.
      const opened = await openDatabase(url);
      try {
        let rows: { status: string; attempts: number }[] = [];
        while (Date.now() < deadline) {
          rows = await opened.db.selectFrom("webhook_deliveries").select(["status", "attempts"]).execute();
          if (rows.length === 10 && rows.every((r) => r.status === "delivered")) break;
          await Bun.sleep(100);
        }
        expect(rows.map((r) => [r.status, Number(r.attempts)])).toEqual(Array(10).fill(["delivered", 1]));
      } finally {
        await opened.close();
      }
      expect(received.length).toBe(10);
      expect(received.every((r) => r.valid)).toBe(true);
      expect(new Set(received.map((r) => r.delivery)).size).toBe(10);
      expect(new Set(received.map((r) => r.scanId)).size).toBe(10);
    } finally {
      receiver.stop(true);
    }
  }, 90_000);
});

describe.skipIf(!available.ok)("serve on a new PostgreSQL database (UNIRANK_DB, UNIRANK_PG_POOL)", () => {
  test("creates the schema, loads the demo data once, and keeps to its pool size", async () => {
    if (!available.ok) return;
    const created = new URL(await available.server.createDatabase("unirank_fresh"));
    // The test server trusts loopback, so any password works: it is here to be kept out of the logs.
    created.password = "s3cret-password";
    const url = created.toString();
    const server = await startServe(["--rate-limit", "0", "--log-dir", tempDir()], {
      UNIRANK_DB: url,
      UNIRANK_PG_POOL: "3",
    });
    try {
      const responses = await Promise.all(
        Array.from({ length: 40 }, (_, i) => fetch(`${server.url}/api/v1/universities/${i + 1}`)),
      );
      expect(responses.map((r) => r.status)).toEqual(Array(40).fill(200));
      const stats = await (await fetch(`${server.url}/api/v1/stats`)).json();
      expect(stats.data.total_universities).toBe(500);
      // This check's own connections go by another name.
      const opened = await openDatabase(`${url}?application_name=unirank-check`);
      try {
        const { rows } = await sql<{ n: string }>`select count(*) as n from pg_stat_activity
          where datname = current_database() and application_name = 'unirank'`.execute(opened.db);
        const n = Number(rows[0]?.n);
        expect(n).toBeGreaterThan(0);
        expect(n).toBeLessThanOrEqual(3);
      } finally {
        await opened.close();
      }
      expect(server.log()).toContain("postgres://postgres:***@127.0.0.1");
      expect(server.log()).not.toContain("s3cret-password");
    } finally {
      await server.stop();
    }
  }, 60_000);
});

describe.skipIf(!available.ok)("a server whose PostgreSQL database goes away", () => {
  test("answers 503 UNAVAILABLE and /health 503 unhealthy, and does not crash", async () => {
    if (!available.ok) return;
    const url = await available.server.createDatabase("unirank_outage");
    expect((await runCli(["migrate", "--db", url])).code).toBe(0);
    const server = await startServe(["--db", url, "--log-dir", tempDir()]);
    try {
      expect((await fetch(`${server.url}/api/v1/stats`)).status).toBe(200);
      // Terminates the server's connections and removes the database.
      await available.server.dropDatabase(new URL(url).pathname.slice(1));
      for (const path of ["/api/v1/stats", "/api/v2/rankings", "/api/v1/universities/1"]) {
        const r = await fetch(`${server.url}${path}`);
        const body = await r.json();
        expect({ path, status: r.status, code: body.error?.code }).toEqual({
          path,
          status: 503,
          code: "UNAVAILABLE",
        });
        expect(JSON.stringify(body)).not.toMatch(/select|database "|stack/i);
      }
      const health = await fetch(`${server.url}/health`);
      expect(health.status).toBe(503);
      expect((await health.json()).checks.database.status).toBe("error");
      expect(server.proc.exitCode).toBeNull();
    } finally {
      await server.stop();
    }
  }, 60_000);
});

if (!available.ok) {
  test.skip(`multi-server tests: postgres is not available: ${available.reason}`, () => {});
}
