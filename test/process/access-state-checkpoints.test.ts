import { Database } from "bun:sqlite";
import { afterAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { migrate } from "../../lib/index.ts";
import { loadConfig } from "../../src/config.ts";
import { accessStatePath, openSqlite } from "../../src/db/open.ts";
import { type RunningServer, startServer } from "../../src/server.ts";
import { tempDir } from "../support/databases.ts";
import { writeFixture } from "../support/fixtures.ts";
import { until } from "../support/until.ts";
import { walCheckpointed, walIndex } from "../support/wal-index.ts";

const dir = tempDir("unirank-checkpoints-");
let server: RunningServer | undefined;
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

test("a server's audit rows are checkpointed by a thread soon after they are written, long before SQLite's own", async () => {
  const dbPath = join(dir, "unirank.db");
  const opened = openSqlite(dbPath);
  await migrate(opened.db);
  await writeFixture(opened.db);
  await opened.close();
  const config = loadConfig({ port: 0, db: dbPath, logDir: join(dir, "logs"), rateLimit: 0 } as never, {});
  server = await startServer(config, { quiet: true });
  // v2 requests are audited: 400 rows, two batches, far under SQLite's own checkpoint (1,000 pages).
  for (let i = 0; i < 400; i++)
    expect((await fetch(`${server.url}/api/v2/universities?_=${i}`)).status).toBe(200);
  const file = accessStatePath(dbPath);
  const auditRows = () => {
    const reader = new Database(file, { readonly: true });
    try {
      return (reader.query("select count(*) as n from audit_log").get() as { n: number }).n;
    } finally {
      reader.close();
    }
  };
  await until("the audit rows written", () => auditRows() >= 400, 5000);
  expect(walIndex(file).mxFrame).toBeGreaterThan(0);
  // Every frame copied into the file (or the WAL started again), with no checkpoint by the connection that wrote.
  await until("a checkpoint of the access-state file", () => walCheckpointed(file), 5000);
});
