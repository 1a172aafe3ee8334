import { Database as SqliteDatabase } from "bun:sqlite";
import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { type DB, inReadSnapshot } from "../../lib/index.ts";
import { type OpenedDatabase, openSqlite } from "../../src/db/open.ts";

/**
 * The SQLite connection's held read snapshot (`HeldReadSnapshot`, the server's data window): plain reads within
 * the window share one read transaction, anything else ends it first. `other` is a second connection to the same
 * file, as another process would write it.
 */
let dir = "";
let opened: OpenedDatabase | undefined;
let other: SqliteDatabase | undefined;

function setUp(readWindowMs: number): { db: DB; other: SqliteDatabase; path: string } {
  dir = mkdtempSync(join(tmpdir(), "unirank-read-window-"));
  const path = join(dir, "w.db");
  opened = openSqlite(path, { readWindowMs });
  other = new SqliteDatabase(path);
  other.exec("pragma busy_timeout = 5000");
  other.exec("create table t (id integer primary key, v integer)");
  other.exec("insert into t values (1, 1)");
  return { db: opened.db as unknown as DB, other, path };
}

afterEach(async () => {
  other?.close();
  other = undefined;
  await opened?.close();
  opened = undefined;
  rmSync(dir, { recursive: true, force: true });
});

const value = async (db: DB): Promise<number> =>
  Number((await sql<{ v: number }>`select v from t where id = 1`.execute(db)).rows[0]?.v);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test("reads within the window share one snapshot; the next window sees another connection's write", async () => {
  const { db, other } = setUp(200);
  expect(await value(db)).toBe(1);
  other.exec("update t set v = 2 where id = 1");
  // Within the window: the snapshot taken by the first read.
  expect(await value(db)).toBe(1);
  await sleep(250);
  expect(await value(db)).toBe(2);
});

test("with a window of 0 every read sees the latest commit", async () => {
  const { db, other } = setUp(0);
  expect(await value(db)).toBe(1);
  other.exec("update t set v = 2 where id = 1");
  expect(await value(db)).toBe(2);
});

test("the connection's own write ends the snapshot and is read back at once", async () => {
  const { db, other } = setUp(60_000);
  expect(await value(db)).toBe(1);
  other.exec("update t set v = 2 where id = 1");
  await sql`update t set v = v + 10 where id = 1`.execute(db);
  expect(await value(db)).toBe(12);
  // A write with RETURNING returns rows but is no plain read: it is not run inside the held snapshot.
  const returned = await sql<{ v: number }>`update t set v = v + 1 where id = 1 returning v`.execute(db);
  expect(returned.rows[0]?.v).toBe(13);
  expect(Number(other.query("select v from t where id = 1").get()?.["v" as never])).toBe(13);
});

test("transactions and read snapshots of the caller's own begin after a held snapshot", async () => {
  const { db, other } = setUp(60_000);
  expect(await value(db)).toBe(1);
  other.exec("update t set v = 2 where id = 1");
  await db.transaction().execute(async (trx) => {
    // `begin immediate` ended the held snapshot: the transaction reads the latest commit.
    expect(await value(trx)).toBe(2);
    await sql`update t set v = 3 where id = 1`.execute(trx);
  });
  expect(Number(other.query("select v from t where id = 1").get()?.["v" as never])).toBe(3);
  expect(await value(db)).toBe(3);
  other.exec("update t set v = 4 where id = 1");
  expect(await inReadSnapshot(db, (s) => value(s))).toBe(4);
  // A failed transaction rolls back and leaves the connection usable.
  await expect(
    db.transaction().execute(async (trx) => {
      await sql`update t set v = 99 where id = 1`.execute(trx);
      throw new Error("undo");
    }),
  ).rejects.toThrow("undo");
  expect(await value(db)).toBe(4);
});

test("an unused snapshot is ended by its timer, so another connection's checkpoint empties the WAL", async () => {
  const { db, other, path } = setUp(50);
  other.exec(
    "with recursive n(i) as (select 2 union all select i + 1 from n where i < 2000) insert into t select i, i from n",
  );
  expect(await value(db)).toBe(1);
  other.exec("update t set v = 5 where id = 1");
  // While held, a truncating checkpoint cannot pass the snapshot's end of the WAL (no waiting: one thread).
  other.exec("pragma busy_timeout = 0");
  const busy = other.query("pragma wal_checkpoint(truncate)").get() as { busy: number };
  expect(busy.busy).toBe(1);
  await sleep(120);
  const done = other.query("pragma wal_checkpoint(truncate)").get() as { busy: number };
  expect(done.busy).toBe(0);
  expect(statSync(`${path}-wal`).size).toBe(0);
  expect(await value(db)).toBe(5);
});

test("a failed read ends the snapshot and the next read works", async () => {
  const { db } = setUp(60_000);
  expect(await value(db)).toBe(1);
  await expect(sql`select nope from t`.execute(db)).rejects.toThrow();
  await expect(sql`select * from missing_table`.execute(db)).rejects.toThrow();
  expect(await value(db)).toBe(1);
  await sql`update t set v = 7 where id = 1`.execute(db);
  expect(await value(db)).toBe(7);
});

test("a streamed read runs outside the held snapshot", async () => {
  const { db, other } = setUp(60_000);
  expect(await value(db)).toBe(1);
  other.exec("update t set v = 8 where id = 1");
  const seen: number[] = [];
  for await (const row of db
    .selectFrom("t" as never)
    .select(sql<number>`v`.as("v"))
    .stream())
    seen.push(Number((row as { v: number }).v));
  expect(seen).toEqual([8]);
});
