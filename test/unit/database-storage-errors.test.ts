import { Database } from "bun:sqlite";
import { expect, test } from "bun:test";
import { rmSync, writeFileSync } from "node:fs";
import { postgresUnavailable, StorageUnavailableError, sqliteUnavailable } from "../../lib/index.ts";

/** How the database adapters tell a storage fault (503) from any other error (500). */

const coded = (code: string, message = "x") => Object.assign(new Error(message), { code });

test("SQLite: the result codes of a storage fault, with their extended codes; not a constraint or a syntax error", () => {
  for (const code of [
    "SQLITE_BUSY",
    "SQLITE_BUSY_SNAPSHOT",
    "SQLITE_CANTOPEN",
    "SQLITE_IOERR_READ",
    "SQLITE_NOTADB",
  ])
    expect(sqliteUnavailable(coded(code)), code).toBe(true);
  for (const code of ["SQLITE_CONSTRAINT_UNIQUE", "SQLITE_ERROR", "SQLITE_MISMATCH"])
    expect(sqliteUnavailable(coded(code)), code).toBe(false);
  expect(sqliteUnavailable(new Error("SQLITE_BUSY in a message only"))).toBe(false);
});

test("SQLite: a real syntax error is not a storage fault, a real read of a file that is no database is", () => {
  const memory = new Database(":memory:");
  let syntax: unknown;
  try {
    memory.query("selec 1").all();
  } catch (e) {
    syntax = e;
  }
  expect(sqliteUnavailable(syntax)).toBe(false);
  const path = `/tmp/unirank-not-a-db-${process.pid}`;
  writeFileSync(path, "this is not a database file, at all, not even close ".repeat(100));
  let garbage: unknown;
  try {
    new Database(path).query("select 1 from sqlite_master").all();
  } catch (e) {
    garbage = e;
  } finally {
    rmSync(path, { force: true });
  }
  expect(sqliteUnavailable(garbage)).toBe(true);
});

test("PostgreSQL: connection exceptions, shutdown, too many connections, no such database, an unreachable server", () => {
  for (const code of ["08006", "08001", "57P01", "57P03", "53300", "3D000", "ECONNREFUSED", "ENOTFOUND"])
    expect(postgresUnavailable(coded(code)), code).toBe(true);
  for (const code of ["23505", "42P01", "22P02", "57014"])
    expect(postgresUnavailable(coded(code)), code).toBe(false);
  expect(postgresUnavailable(new Error("no code"))).toBe(false);
});

test("the storage error keeps its cause and says what it is", () => {
  const cause = coded("SQLITE_NOTADB", "file is not a database");
  const e = new StorageUnavailableError(cause);
  expect(e.cause).toBe(cause);
  expect(e.message).toBe("storage unavailable: file is not a database");
});
