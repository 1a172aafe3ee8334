import { afterEach, describe, expect, test } from "bun:test";
import { openSync, rmSync, statSync, writeSync } from "node:fs";
import { join } from "node:path";
import { sql } from "kysely";
import { migrate } from "../../lib/index.ts";
import { loadConfig } from "../../src/config.ts";
import { openSqlite } from "../../src/db/open.ts";
import { type RunningServer, startServer } from "../../src/server.ts";
import { tempDir } from "../support/databases.ts";
import { writeFixture } from "../support/fixtures.ts";

/** `/health` reads through to the file: pages overwritten in place (-wal and -shm kept) make it unhealthy. */
const running: { server: RunningServer; dir: string }[] = [];
afterEach(async () => {
  for (const { server, dir } of running.splice(0)) {
    await server.stop().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  }
});

async function serve() {
  const dir = tempDir("unirank-health-storage-");
  const dbPath = join(dir, "served.db");
  const opened = openSqlite(dbPath);
  await migrate(opened.db);
  await writeFixture(opened.db);
  // Everything in the main file, as after a while of serving.
  await sql`pragma wal_checkpoint(truncate)`.execute(opened.db);
  await opened.close();
  const config = loadConfig({ port: 0, db: dbPath, logDir: join(dir, "logs"), rateLimit: 0 } as never, {});
  const server = await startServer(config, { quiet: true });
  running.push({ server, dir });
  const health = async () => {
    const r = await fetch(`${server.url}/health`);
    return { status: r.status, body: (await r.json()) as { status: string; checks: { database: object } } };
  };
  return { dbPath, health, url: server.url };
}

/** Asks /health until it answers 503, for at most `ms`; returns the last answer and how long it took. */
async function untilUnhealthy(
  health: () => ReturnType<Awaited<ReturnType<typeof serve>>["health"]>,
  ms: number,
) {
  const started = performance.now();
  let last = await health();
  while (last.status !== 503 && performance.now() - started < ms) {
    await new Promise((ok) => setTimeout(ok, 20));
    last = await health();
  }
  return { last, ms: performance.now() - started };
}

function overwrite(path: string, from: number, length: number, byte: number) {
  const fd = openSync(path, "r+");
  writeSync(fd, Buffer.alloc(length, byte), 0, length, from);
}

describe("/health reads the storage, not the page cache", () => {
  test("the whole file overwritten in place → 503 unhealthy within the probe interval", async () => {
    const { dbPath, health, url } = await serve();
    // Data pages in the server's page cache, and a healthy answer from it.
    expect((await fetch(`${url}/api/v1/universities?limit=5`)).status).toBe(200);
    expect((await health()).body.status).toBe("healthy");
    overwrite(dbPath, 0, statSync(dbPath).size, 0x5a);
    const { last } = await untilUnhealthy(health, 3000);
    expect(last.status).toBe(503);
    expect(last.body.status).toBe("unhealthy");
    expect(last.body.checks.database).toEqual({ status: "error", error: expect.any(String) });
  });

  test("pages after the first overwritten (header intact) → 503 unhealthy", async () => {
    const { dbPath, health } = await serve();
    expect((await health()).body.status).toBe("healthy");
    const page = 4096;
    overwrite(dbPath, page, statSync(dbPath).size - page, 0x00);
    const { last } = await untilUnhealthy(health, 3000);
    expect(last.status).toBe(503);
    expect(last.body.status).toBe("unhealthy");
  });
});
