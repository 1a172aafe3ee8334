import { Database as SqliteDatabase } from "bun:sqlite";
import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CompiledQuery, type Kysely, sql } from "kysely";
import { directReadOf } from "../../lib/db/direct-reads.ts";
import { prepared } from "../../lib/db/prepared.ts";
import type { DB } from "../../lib/index.ts";
import { type OpenedDatabase, openSqlite } from "../../src/db/open.ts";

/**
 * The bun:sqlite handle's direct reads (`DirectRead`, used by `prepared`): a plain read runs at once while no
 * caller holds the connection, and waits its turn, the usual way, while one does (a transaction above all).
 */
let dir = "";
let opened: OpenedDatabase | undefined;

function setUp(): DB {
  dir = mkdtempSync(join(tmpdir(), "unirank-direct-reads-"));
  const path = join(dir, "d.db");
  const other = new SqliteDatabase(path);
  other.exec("create table t (id integer primary key, v integer)");
  other.exec("insert into t values (1, 1)");
  other.close();
  opened = openSqlite(path, { readWindowMs: 0 });
  return opened.db as unknown as DB;
}

afterEach(async () => {
  await opened?.close();
  opened = undefined;
  rmSync(dir, { recursive: true, force: true });
});

/** The test's one table, typed for the query builder. */
const tables = (db: DB) => db as unknown as Kysely<{ t: { id: number; v: number } }>;
const readV = prepared((db, arg) => tables(db).selectFrom("t").select("v").where("id", "=", arg(0)));
const v = async (db: DB): Promise<number | undefined> => (await readV(db, [1]))[0]?.v;

test("a plain read runs at once; any other statement is left to the usual way, not run", async () => {
  const db = setUp();
  const direct = directReadOf(db);
  expect(direct).toBeDefined();
  expect(direct?.(CompiledQuery.raw("select v from t where id = 1"))).toEqual([{ v: 1 }]);
  expect(direct?.(CompiledQuery.raw("update t set v = 9 where id = 1"))).toBeUndefined();
  expect(direct?.(CompiledQuery.raw("update t set v = 9 where id = 1 returning v"))).toBeUndefined();
  expect(await v(db)).toBe(1);
  // A read that fails is left to the usual way too, which reports the error.
  expect(direct?.(CompiledQuery.raw("select v from missing"))).toBeUndefined();
  const missing = prepared((db) =>
    (db as unknown as Kysely<{ missing: { v: number } }>).selectFrom("missing").select("v"),
  );
  await expect(missing(db, [])).rejects.toThrow(/no such table/);
});

test("a read while a transaction holds the connection waits for it and never runs inside it", async () => {
  const db = setUp();
  let during: Promise<number | undefined> | undefined;
  await db
    .transaction()
    .execute(async (trx) => {
      await sql`update t set v = 5 where id = 1`.execute(trx);
      expect(directReadOf(db)?.(CompiledQuery.raw("select v from t where id = 1"))).toBeUndefined();
      during = v(db);
      throw new Error("rolled back");
    })
    .catch(() => {});
  // Read after the transaction rolled back: it never saw the update.
  expect(await during).toBe(1);
  expect(await v(db)).toBe(1);
});

test("reads of a transaction's own handle go the usual way, inside it", async () => {
  const db = setUp();
  await db.transaction().execute(async (trx) => {
    await sql`update t set v = 7 where id = 1`.execute(trx);
    expect(directReadOf(trx)).toBeUndefined();
    expect((await readV(db, [1], 0, trx))[0]?.v).toBe(7);
  });
  expect(await v(db)).toBe(7);
});
