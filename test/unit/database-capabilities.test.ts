import { expect, test } from "bun:test";
import {
  DummyDriver,
  Kysely,
  MssqlAdapter,
  MssqlIntrospector,
  MssqlQueryCompiler,
  MysqlAdapter,
  MysqlIntrospector,
  MysqlQueryCompiler,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from "kysely";
import { capabilitiesOf, UnsupportedDatabaseError } from "../../lib/db/capabilities.ts";
import { migrate } from "../../lib/index.ts";

/** A Kysely instance over a driver that runs nothing and records every statement it is given. */
function recording(
  adapter: new () => unknown,
  compiler: new () => unknown,
  introspector: new (db: Kysely<unknown>) => unknown,
) {
  const statements: string[] = [];
  class RecordingDriver extends DummyDriver {
    override async acquireConnection() {
      return {
        executeQuery: async (q: { sql: string }) => {
          statements.push(q.sql);
          return { rows: [] };
        },
        streamQuery: () => {
          throw new Error("not streamed");
        },
      } as never;
    }
  }
  const db = new Kysely<unknown>({
    dialect: {
      createAdapter: () => new adapter() as never,
      createDriver: () => new RecordingDriver(),
      createQueryCompiler: () => new compiler() as never,
      createIntrospector: (k) => new introspector(k) as never,
    },
  });
  return { db, statements };
}

test("SQLite and PostgreSQL adapters have their capabilities", () => {
  const sqlite = capabilitiesOf(recording(SqliteAdapter, SqliteQueryCompiler, SqliteIntrospector).db);
  const pg = capabilitiesOf(recording(PostgresAdapter, PostgresQueryCompiler, PostgresIntrospector).db);
  expect(sqlite).toMatchObject({ family: "sqlite", indexHints: true, rowLocks: false, triggers: "sqlite" });
  expect(pg).toMatchObject({ family: "postgres", indexHints: false, rowLocks: true, triggers: "plpgsql" });
  expect(sqlite.types.double).toBe("real");
  expect(pg.types.double).toBe("double precision");
});

test("MySQL and MS SQL Server are refused by name, and migrate runs no statement on them", async () => {
  for (const [adapter, compiler, introspector, name] of [
    [MysqlAdapter, MysqlQueryCompiler, MysqlIntrospector, "MysqlAdapter"],
    [MssqlAdapter, MssqlQueryCompiler, MssqlIntrospector, "MssqlAdapter"],
  ] as const) {
    const { db, statements } = recording(adapter, compiler, introspector);
    expect(() => capabilitiesOf(db)).toThrow(UnsupportedDatabaseError);
    expect(() => capabilitiesOf(db)).toThrow(
      `unirank supports SQLite, PostgreSQL and PGlite; got a Kysely instance with ${name}`,
    );
    await expect(migrate(db as never)).rejects.toThrow(name);
    expect(statements).toEqual([]);
  }
});
