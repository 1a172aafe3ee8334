import { afterAll, expect, test } from "bun:test";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { migrate } from "../../lib/index.ts";
import { loadConfig } from "../../src/config.ts";
import { accessStatePath, openSqlite } from "../../src/db/open.ts";
import { type RunningServer, startServer } from "../../src/server.ts";
import { tempDir } from "../support/databases.ts";
import { writeFixture } from "../support/fixtures.ts";
import { until } from "../support/until.ts";

const dir = tempDir("unirank-checkpoints-");
let server: RunningServer | undefined;
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * The WAL's last frame and how far it was copied into the file, read from the shared-memory WAL index without a
 * connection (SQLite's file format, *The WAL-Index Format*: `mxFrame` at byte 16 of the header, `nBackfill` at
 * byte 96 after its two copies; native byte order).
 */
function walIndex(file: string): { mxFrame: number; nBackfill: number } {
  const shm = readFileSync(`${file}-shm`);
  return { mxFrame: shm.readUInt32LE(16), nBackfill: shm.readUInt32LE(96) };
}

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
  await until("the audit rows in the WAL", () => walIndex(file).mxFrame > 0, 5000);
  // Every frame copied into the file (or the WAL started again), with no checkpoint by the connection that wrote.
  await until(
    "a checkpoint of the access-state file",
    () => {
      const { mxFrame, nBackfill } = walIndex(file);
      return mxFrame === 0 || nBackfill === mxFrame;
    },
    5000,
  );
});
