import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { tempDir } from "./support/databases.ts";
import { testPostgres } from "./support/postgres-server.ts";
import { runCli, type ServeProcess, startServe } from "./support/serve-process.ts";

/**
 * Several `unirank serve` processes on one PostgreSQL database behave as one service: the anonymous limit is
 * exact across them.
 */
const available = await testPostgres();

describe.skipIf(!available.ok)("two serve processes on one PostgreSQL database", () => {
  let url = "";
  let servers: ServeProcess[] = [];

  beforeAll(async () => {
    if (!available.ok) return;
    url = await available.server.createDatabase("unirank_multi");
    // Migrated first, so the servers start on an existing (empty) schema rather than loading the demo data.
    const migrated = await runCli(["migrate", "--db", url]);
    expect(migrated.code).toBe(0);
    const logDir = tempDir();
    servers = await Promise.all(
      [1, 2].map(() => startServe(["--db", url, "--rate-limit", "100", "--log-dir", logDir])),
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
});

if (!available.ok) {
  test.skip(`multi-server tests: postgres is not available: ${available.reason}`, () => {});
}
