import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sql } from "kysely";
import { migrate } from "../../lib/index.ts";
import pkg from "../../package.json" with { type: "json" };
import { loadConfig } from "../../src/config.ts";
import { openSqlite } from "../../src/db/open.ts";
import { type RunningServer, startServer } from "../../src/server.ts";
import { tempDir } from "../support/databases.ts";
import { writeFixture } from "../support/fixtures.ts";

/** A real server (startServer, as `unirank serve` runs it) over a small SQLite file made for the test. */
async function serve(options: Record<string, string | number | boolean> = {}) {
  const dir = tempDir("unirank-health-");
  const dbPath = join(dir, "health.db");
  const opened = openSqlite(dbPath);
  await migrate(opened.db);
  await writeFixture(opened.db);
  await opened.close();
  const config = loadConfig(
    { port: 0, db: dbPath, logDir: join(dir, "logs"), rateLimit: 0, ...options } as never,
    {},
  );
  const server = await startServer(config, { quiet: true });
  running.push({ server, dir });
  const get = async (path: string) => {
    const r = await fetch(`${server.url}${path}`);
    return { status: r.status, headers: r.headers, body: await r.json() };
  };
  return { server, dir, dbPath, get };
}

const running: { server: RunningServer; dir: string }[] = [];
afterEach(async () => {
  for (const { server, dir } of running.splice(0)) {
    await server.stop().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  }
});

describe("/health over a real server", () => {
  test("healthy: every check ok, the package version, no-store, no wrapper", async () => {
    const { get } = await serve();
    const { status, headers, body } = await get("/health");
    expect(status).toBe(200);
    expect(headers.get("Cache-Control")).toBe("no-store");
    expect(body).toEqual({
      status: "healthy",
      version: pkg.version,
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/),
      checks: {
        database: { status: "ok", latency_ms: expect.any(Number) },
        disk: { status: "ok", free_gb: expect.any(Number) },
        logs: { status: "ok", writable: true },
        cache: { status: "ok", entries: 0 },
        writes: { status: "ok" },
      },
    });
    expect(body.checks.disk.free_gb).toBeGreaterThan(0);
    expect(Number.isInteger(body.checks.cache.entries)).toBe(true);
  });

  test("checks.cache.entries counts the response cache; --no-cache keeps it at 0", async () => {
    const on = await serve();
    for (const path of [
      "/api/v1/stats",
      "/api/v1/rankings",
      "/api/v1/universities?limit=3",
      "/api/v1/stats",
    ]) {
      expect((await on.get(path)).status).toBe(200);
    }
    expect((await on.get("/health")).body.checks.cache.entries).toBe(3);
    const off = await serve({ cache: false });
    await off.get("/api/v1/stats");
    await off.get("/api/v1/rankings");
    expect((await off.get("/health")).body.checks.cache).toEqual({ status: "ok", entries: 0 });
    const small = await serve({ cacheEntries: 2 });
    for (const path of ["/api/v1/stats", "/api/v1/rankings", "/api/v1/universities"]) await small.get(path);
    expect((await small.get("/health")).body.checks.cache.entries).toBe(2);
  });

  test("a database file replaced by garbage → 503 unhealthy; data routes answer 503 UNAVAILABLE", async () => {
    const { get, dbPath } = await serve();
    expect((await get("/health")).body.status).toBe("healthy");
    writeFileSync(dbPath, Buffer.alloc(16384, 0x41));
    rmSync(`${dbPath}-wal`, { force: true });
    rmSync(`${dbPath}-shm`, { force: true });
    // The database check is shared by the health requests of one millisecond (docs/decisions.md): ask until an
    // answer comes from a check made after the file was replaced (bounded; the first one or two normally are).
    let answer = await get("/health");
    for (let i = 0; i < 100 && answer.status !== 503; i++) answer = await get("/health");
    const { status, headers, body } = answer;
    expect(status).toBe(503);
    expect(headers.get("Cache-Control")).toBe("no-store");
    expect(body.status).toBe("unhealthy");
    expect(body.checks.database.status).toBe("error");
    expect(Object.keys(body.checks).sort()).toEqual(["cache", "database", "disk", "logs", "writes"]);
    expect(JSON.stringify(body)).not.toMatch(/malformed|SQLITE|select/i);
    const data = await get("/api/v1/universities");
    expect(data.status).toBe(503);
    expect(data.body).toEqual({
      success: false,
      error: { code: "UNAVAILABLE", message: expect.any(String) },
    });
  });

  test("a dropped table → 503 unhealthy", async () => {
    const { get, dbPath } = await serve();
    const other = openSqlite(dbPath);
    await sql`pragma foreign_keys = off`.execute(other.db);
    await sql`drop table universities`.execute(other.db);
    await other.close();
    const { status, body } = await get("/health");
    expect(status).toBe(503);
    expect(body.status).toBe("unhealthy");
    expect(body.checks.database).toEqual({ status: "error", error: expect.any(String) });
  });

  test("an unwritable log directory → 200 degraded with logs.writable false", async () => {
    const dir = tempDir("unirank-logs-");
    const file = join(dir, "not-a-directory");
    writeFileSync(file, "x");
    try {
      const { get } = await serve({ logDir: join(file, "logs") });
      const { status, body } = await get("/health");
      expect(status).toBe(200);
      expect(body.status).toBe("degraded");
      expect(body.checks.logs).toEqual({ status: "warn", writable: false });
      expect(body.checks.database.status).toBe("ok");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("free disk below the operator's threshold → degraded with disk warn", async () => {
    const { get } = await serve({ minFreeDiskGb: 1_000_000_000 });
    const { status, body } = await get("/health");
    expect(status).toBe(200);
    expect(body.status).toBe("degraded");
    expect(body.checks.disk.status).toBe("warn");
    expect(body.checks.disk.free_gb).toBeGreaterThan(0);
  });

  test("the log directory really receives the log", async () => {
    const { dir } = await serve();
    mkdirSync(join(dir, "logs"), { recursive: true });
    const log = await Bun.file(join(dir, "logs", "unirank.log")).text();
    expect(log).toContain("unirank listening");
  });
});
