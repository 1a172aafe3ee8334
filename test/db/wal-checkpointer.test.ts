import { Database } from "bun:sqlite";
import { expect, test } from "bun:test";
import { existsSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { sql } from "kysely";
import { createAuditLog, type DB } from "../../lib/index.ts";
import { accessStatePath, openAccessState, openSqlite } from "../../src/db/open.ts";
import { startWalCheckpointer, WRITER_CHECKPOINT_FALLBACK_PAGES } from "../../src/db/wal-checkpointer.ts";
import { tempDir } from "../support/databases.ts";
import { until } from "../support/until.ts";
import { walCheckpointed } from "../support/wal-index.ts";

const autocheckpoint = async (db: DB) =>
  Number(
    (await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(db)).rows[0]
      ?.wal_autocheckpoint,
  );

/** A data file and its access-state file in a new directory, closed and removed after `body`. */
async function withAccessState(body: (location: string, state: DB) => Promise<void>) {
  const dir = tempDir();
  const location = join(dir, "unirank.db");
  const data = openSqlite(location);
  try {
    const state = await openAccessState(location, data, { checkpointThread: true });
    try {
      await body(location, state.db);
    } finally {
      await state.close();
    }
    expect(existsSync(`${accessStatePath(location)}-wal`)).toBe(false);
  } finally {
    await data.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

test("the access-state file is checkpointed by a thread: its WAL stays far smaller than what was written", async () => {
  await withAccessState(async (location, state) => {
    // The writer's own checkpoint waits for 40 MB of WAL, more than this test writes.
    expect(await autocheckpoint(state)).toBe(WRITER_CHECKPOINT_FALLBACK_PAGES);
    const audit = createAuditLog(state);
    const file = accessStatePath(location);
    const before = statSync(file).size;
    const until = performance.now() + 2500;
    for (let n = 0; performance.now() < until; ) {
      for (let i = 0; i < 200; i++, n++) {
        audit.record({
          at: new Date(),
          request_id: crypto.randomUUID(),
          key_id: null,
          client_ip: "127.0.0.1",
          method: "GET",
          path: `/api/v2/universities/${n}?fields=${"x".repeat(200)}`,
          status: 200,
          duration_ms: 1,
        });
      }
      await Bun.sleep(5);
    }
    await audit.close();
    // Every row reached the file (the thread's checkpoints moved them out of the WAL), and the WAL was restarted.
    const grown = statSync(file).size - before;
    expect(grown).toBeGreaterThan(8_000_000);
    expect(statSync(`${file}-wal`).size).toBeLessThan(grown / 2);
  });
});

test("without the thread (the data file, the access state a command reads) SQLite checkpoints as its default", async () => {
  const dir = tempDir();
  try {
    const data = openSqlite(join(dir, "unirank.db"));
    const state = await openAccessState(join(dir, "unirank.db"), data);
    try {
      expect(await autocheckpoint(data.db)).toBe(1000);
      expect(await autocheckpoint(state.db)).toBe(1000);
    } finally {
      await state.close();
      await data.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a thread whose file is gone ends without making it again, and stopping it does not wait", async () => {
  const dir = tempDir();
  try {
    // Deleted under the server: the storage check must find it gone, not a new empty file in its place.
    const file = join(dir, "unirank.db");
    const checkpointer = startWalCheckpointer(file);
    expect(checkpointer).not.toBeNull();
    await checkpointer?.started;
    expect(existsSync(file)).toBe(false);
    const began = performance.now();
    await checkpointer?.stop();
    expect(performance.now() - began).toBeLessThan(1500);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("while the connection's writes are stopped (an unwritable or replaced file), so are the thread's checkpoints", async () => {
  const dir = tempDir();
  const file = join(dir, "state.db");
  const opened = openSqlite(file, { checkpointThread: true });
  const writer = new Database(file);
  try {
    await sql`create table t (x text)`.execute(opened.db);
    await until("the first checkpoint", () => walCheckpointed(file), 5000);
    opened.stopWrites?.("the file cannot be written");
    // Written by another connection with no checkpoint of its own, while the thread is paused.
    writer.exec("pragma wal_autocheckpoint = 0");
    writer.exec("insert into t values ('a'), ('b')");
    await Bun.sleep(1500);
    expect(walCheckpointed(file)).toBe(false);
    opened.stopWrites?.(null);
    await until("a checkpoint after the writes resumed", () => walCheckpointed(file), 5000);
  } finally {
    writer.close();
    await opened.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
