import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Kysely, sql } from "kysely";
import {
  type Database,
  getUniversity,
  inReadSnapshot,
  migrate,
  StorageUnavailableError,
  universityScores,
  writeRecords,
} from "../../lib/index.ts";
import { BunPostgresDialect } from "../../src/db/bun-postgres-dialect.ts";
import { openPostgres } from "../../src/db/postgres.ts";
import { postgresStorageFault } from "../../src/db/postgres-storage-fault.ts";
import { testPostgres } from "../support/postgres-server.ts";

const available = await testPostgres();

/** The dialect of `serve` and the CLI on PostgreSQL (src/db/bun-postgres-dialect.ts), on a real server. */
describe.skipIf(!available.ok)("PostgreSQL through Bun's client", () => {
  let url: string;
  let db: Kysely<Database>;
  let close: () => Promise<void>;
  const statements: string[] = [];
  const backend = async (on: Kysely<Database> = db) =>
    (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(on)).rows[0]?.pid;

  beforeAll(async () => {
    if (!available.ok) return;
    url = await available.server.createDatabase("unirank_bun_pg");
    // One connection, so its prepared statements are the ones this test reads.
    db = new Kysely<Database>({
      dialect: new BunPostgresDialect({ url, max: 1, acquireSeconds: 10, idleSeconds: 30 }),
      log: (event) => {
        if (event.level === "query") statements.push(event.query.sql);
      },
    });
    close = () => db.destroy();
    await migrate(db);
    await writeRecords(db, [
      {
        type: "university",
        domain: "a.de.example",
        name: "Alpha",
        country: "DE",
        created_at: "2024-01-01T00:00:00Z",
      },
      {
        type: "scan",
        source_id: "a-1",
        domain: "a.de.example",
        status: "completed",
        started_at: "2024-02-01T00:00:00Z",
        completed_at: "2024-02-01T00:00:00Z",
        overall_score: 71,
      },
    ]);
  });
  afterAll(async () => {
    await close?.();
  });

  test("getUniversity and universityScores: one statement each, prepared on first use and reused", async () => {
    const { id } = await db.selectFrom("universities").select("id").executeTakeFirstOrThrow();
    const texts = new Set<string>();
    for (let i = 0; i < 3; i++) {
      statements.length = 0;
      expect((await getUniversity(db, Number(id))).latest_scan?.overall_score).toBe(71);
      expect(statements).toHaveLength(1);
      texts.add(statements[0] as string);
      statements.length = 0;
      expect((await universityScores(db, Number(id))).overall_score).toBe(71);
      expect(statements).toHaveLength(1);
      texts.add(statements[0] as string);
    }
    const prepared = await sql<{ statement: string; generic_plans: number; custom_plans: number }>`
      select statement, generic_plans, custom_plans from pg_prepared_statements`.execute(db);
    const detail = prepared.rows.filter((r) => texts.has(r.statement));
    // Prepared once each on this connection, then run again by name.
    expect(detail).toHaveLength(2);
    expect(new Set(detail.map((r) => r.statement)).size).toBe(detail.length);
    for (const r of detail)
      expect(Number(r.generic_plans) + Number(r.custom_plans)).toBeGreaterThanOrEqual(3);
  });

  test("counts come back as strings, written rows as numAffectedRows, server errors with their SQLSTATE", async () => {
    const count = await db
      .selectFrom("universities")
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirst();
    expect(count?.n).toBe("1");
    const updated = await db
      .updateTable("universities")
      .set({ name: "Alpha" })
      .where("domain", "=", "a.de.example")
      .executeTakeFirst();
    expect(updated.numUpdatedRows).toBe(1n);
    const error = await sql`select no_such_column from universities`.execute(db).catch((e: unknown) => e);
    expect((error as { code?: string }).code).toBe("42703");
    expect(error).not.toBeInstanceOf(StorageUnavailableError);
  });

  test("a transaction and a connection that begins one hold one server connection; other statements pipeline", async () => {
    const opened = openPostgres(url, { poolSize: 3 });
    try {
      const inTransaction = await opened.db.transaction().execute(async (trx) => {
        const pids = [];
        for (let i = 0; i < 4; i++) pids.push(await backend(trx));
        return pids;
      });
      expect(new Set(inTransaction).size).toBe(1);
      // A read snapshot begins its transaction with a statement of its own (`db.connection()`): what is written
      // meanwhile, through the pool, stays out of it.
      const universities = () => sql<{ n: string }>`select count(*) as n from universities`;
      const before = Number((await universities().execute(opened.db)).rows[0]?.n);
      const seen = await inReadSnapshot(opened.db, async (s) => {
        const first = Number((await universities().execute(s)).rows[0]?.n);
        await writeRecords(opened.db, [
          {
            type: "university",
            domain: "b.fr.example",
            name: "Beta",
            country: "FR",
            created_at: "2024-01-01T00:00:00Z",
          },
        ]);
        return [first, Number((await universities().execute(s)).rows[0]?.n)];
      });
      expect(seen).toEqual([before, before]);
      expect(Number((await universities().execute(opened.db)).rows[0]?.n)).toBe(before + 1);
    } finally {
      await opened.close();
    }
  });

  test("a migration's session lock is taken and released on one connection, among other statements", async () => {
    const fresh = await (available.ok ? available.server.createDatabase("unirank_bun_pg_lock") : "");
    const opened = openPostgres(fresh, { poolSize: 4 });
    try {
      // Other statements keep the pool's connections busy while the migrations run.
      let busy = true;
      const load = (async () => {
        while (busy) await Promise.all(Array.from({ length: 8 }, () => backend(opened.db)));
      })();
      await migrate(opened.db);
      busy = false;
      await load;
      const locks = await sql<{
        n: string;
      }>`select count(*) as n from pg_locks where locktype = 'advisory'`.execute(opened.db);
      expect(Number(locks.rows[0]?.n)).toBe(0);
    } finally {
      await opened.close();
    }
  });

  test("a statement that selects * answers after a column is added by another process", async () => {
    const other = openPostgres(url, { poolSize: 1 });
    try {
      await sql`create table if not exists widened (a int)`.execute(db);
      await sql`insert into widened values (1)`.execute(db);
      const read = () => sql<Record<string, number>>`select * from widened`.execute(db);
      expect((await read()).rows).toEqual([{ a: 1 }]);
      await sql`alter table widened add column b int default 7`.execute(other.db);
      expect((await read()).rows).toEqual([{ a: 1, b: 7 }]);
      expect((await read()).rows).toEqual([{ a: 1, b: 7 }]);
    } finally {
      await other.close();
    }
  });

  test("connections the server ends (a restart, a failover) are replaced, and the pool answers again", async () => {
    const opened = openPostgres(url, { poolSize: 3 });
    const admin = openPostgres(url, { poolSize: 1 });
    try {
      await Promise.all(Array.from({ length: 6 }, () => backend(opened.db)));
      await sql`select pg_terminate_backend(pid) from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid()`.execute(admin.db);
      // The server's goodbye reaches the client on its own time; a statement caught on such a connection is a 503.
      await Bun.sleep(500);
      const outcomes: string[] = [];
      for (let i = 0; i < 4; i++) {
        outcomes.push(
          await backend(opened.db).then(
            () => "answer",
            (e: unknown) => (e instanceof StorageUnavailableError ? "503" : `other: ${(e as Error).message}`),
          ),
        );
      }
      expect(outcomes.filter((o) => o !== "answer" && o !== "503")).toEqual([]);
      expect(outcomes.slice(-2)).toEqual(["answer", "answer"]);
      expect(await opened.db.transaction().execute((trx) => backend(trx))).toBeGreaterThan(0);
    } finally {
      await opened.close();
      await admin.close();
    }
  });

  test("a server that cannot be reached is a storage fault (503), and so is a reservation that waits too long", async () => {
    const gone = openPostgres("postgres://unirank@127.0.0.1:1/unirank", { poolTimeoutSeconds: 2 });
    try {
      const error = await sql`select 1`.execute(gone.db).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StorageUnavailableError);
      expect(postgresStorageFault(error)).toBe("database unreachable");
    } finally {
      await gone.close();
    }
    const one = openPostgres(url, { poolSize: 1, poolTimeoutSeconds: 1 });
    try {
      let release!: () => void;
      const held = one.db.transaction().execute(() => new Promise<void>((r) => (release = r)));
      await Bun.sleep(100);
      const error = await one.db
        .transaction()
        .execute(async () => 1)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StorageUnavailableError);
      release();
      await held;
      expect(await one.db.transaction().execute(async (trx) => backend(trx))).toBeGreaterThan(0);
    } finally {
      await one.close();
    }
  });
});
