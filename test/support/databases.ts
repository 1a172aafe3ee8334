import { afterAll, beforeAll, describe, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Kysely, sql } from "kysely";
import { capabilitiesOf } from "../../lib/db/capabilities.ts";
import { forgetGenerations, readGeneration } from "../../lib/db/generation.ts";
import { type Database, type DB, migrate, PGliteDialect, writeRecords } from "../../lib/index.ts";
import { generateDataset } from "../../lib/seed/generate.ts";
import { openSqlite } from "../../src/db/open.ts";
import { openPostgres } from "../../src/db/postgres.ts";
import { testPostgres } from "./postgres-server.ts";

/** A database a test suite runs against; tests loop over every available kind (as Kysely's tests loop over dialects). */
export interface TestDatabase {
  kind: DatabaseKind;
  db: DB;
  /** What a `unirank` process would be given as `--db` to reach this same database; none for PGlite. */
  location?: string;
  /** Removes every row of every table but the migration tables, and restarts ids at 1 (schema stays). */
  reset(): Promise<void>;
  close(): Promise<void>;
}

export type DatabaseKind = "sqlite" | "pglite" | "postgres";

export interface DatabaseFactory {
  kind: DatabaseKind;
  /** Why this kind cannot run here; its suites are then skipped with this message. */
  unavailable?: string;
  /** Null when this kind cannot run here. */
  create(): Promise<TestDatabase | null>;
}

export function tempDir(prefix = "unirank-test-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

const sqliteFile: DatabaseFactory = {
  kind: "sqlite",
  async create() {
    const dir = tempDir();
    const path = join(dir, "test.db");
    const opened = openSqlite(path);
    await migrate(opened.db);
    return {
      kind: "sqlite",
      db: opened.db,
      location: path,
      reset: () => resetAll(opened.db),
      async close() {
        await opened.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
};

type PGliteModule = typeof import("@electric-sql/pglite");
let pgliteTemplate: Promise<File | Blob> | null = null;

/** PGlite (PostgreSQL in WebAssembly, in-process). A migrated data directory is made once and loaded per suite. */
function pgliteFactory(mod: PGliteModule): DatabaseFactory {
  return {
    kind: "pglite",
    async create() {
      pgliteTemplate ??= (async () => {
        const client = await mod.PGlite.create();
        const db = new Kysely<Database>({ dialect: new PGliteDialect(client) });
        await migrate(db);
        const dump = await client.dumpDataDir("none");
        await db.destroy();
        return dump;
      })();
      const client = await mod.PGlite.create({ loadDataDir: await pgliteTemplate });
      const db = new Kysely<Database>({ dialect: new PGliteDialect(client) });
      await migrate(db);
      return { kind: "pglite", db, reset: () => resetAll(db), close: () => db.destroy() };
    },
  };
}

/** A real PostgreSQL server (test/support/postgres-server.ts), one fresh database per suite. */
function postgresFactory(): DatabaseFactory {
  return {
    kind: "postgres",
    async create() {
      const available = await testPostgres();
      if (!available.ok) return null;
      const url = await available.server.createDatabase();
      const opened = openPostgres(url, { poolSize: 10 });
      await migrate(opened.db);
      return {
        kind: "postgres",
        db: opened.db,
        location: url,
        reset: () => resetAll(opened.db),
        async close() {
          await opened.close();
          await available.server.dropDatabase(new URL(url).pathname.slice(1));
        },
      };
    },
  };
}

const unavailable = (kind: DatabaseKind, reason: string): DatabaseFactory => ({
  kind,
  unavailable: reason,
  create: async () => null,
});

/** `UNIRANK_TEST_DATABASES=sqlite,pglite` narrows the kinds (default: all three). */
const wanted = new Set(
  (process.env.UNIRANK_TEST_DATABASES ?? "sqlite,pglite,postgres").split(",").map((s) => s.trim()),
);

async function buildFactories(): Promise<DatabaseFactory[]> {
  const out: DatabaseFactory[] = [];
  if (wanted.has("sqlite")) out.push(sqliteFile);
  if (wanted.has("pglite")) {
    try {
      out.push(pgliteFactory(await import("@electric-sql/pglite")));
    } catch (e) {
      out.push(unavailable("pglite", `@electric-sql/pglite cannot load: ${(e as Error).message}`));
    }
  }
  if (wanted.has("postgres")) {
    const pg = await testPostgres();
    out.push(pg.ok ? postgresFactory() : unavailable("postgres", pg.reason));
  }
  for (const f of out) {
    if (f.unavailable) console.warn(`[unirank tests] ${f.kind} suites are skipped: ${f.unavailable}`);
  }
  return out;
}

/** Every database kind the suite runs on. */
export const DATABASES: DatabaseFactory[] = await buildFactories();

/** Tables to empty: every table the migrations made, read from the database itself. */
async function userTables(db: DB): Promise<string[]> {
  if (capabilitiesOf(db).family === "postgres") {
    const { rows } = await sql<{ name: string }>`select tablename as name from pg_tables
      where schemaname = current_schema() and tablename not like 'unirank\\_migrations%'`.execute(db);
    return rows.map((r) => r.name);
  }
  const { rows } = await sql<{ name: string }>`select name from sqlite_master
    where type = 'table' and name not like 'sqlite\\_%' escape '\\' and name not like 'unirank\\_migrations%' escape '\\'`.execute(
    db,
  );
  return rows.map((r) => r.name);
}

/**
 * Empties every table (except migration bookkeeping) and restarts ids, so a reset database is like a new one.
 * The data generation alone moves on (a reset is a write): answers memoised per generation must not survive it.
 */
export async function resetAll(db: DB): Promise<void> {
  const tables = await userTables(db);
  if (tables.length === 0) return;
  const generation = tables.includes("unirank_meta") ? await readGeneration(db) : 0;
  await wipe(db, tables);
  if (tables.includes("unirank_meta")) {
    const value = String(generation + 1);
    await sql`insert into unirank_meta (key, value) values ('generation', ${value})`.execute(db);
  }
  forgetGenerations();
}

async function wipe(db: DB, tables: string[]): Promise<void> {
  if (capabilitiesOf(db).family === "postgres") {
    await sql`truncate table ${sql.join(tables.map((t) => sql.table(t)))} restart identity cascade`.execute(
      db,
    );
    return;
  }
  await sql`pragma foreign_keys = off`.execute(db);
  try {
    for (const t of tables) await sql`delete from ${sql.table(t)}`.execute(db);
    if (tables.length > 0) {
      const seq = await sql`select 1 from sqlite_master where name = 'sqlite_sequence'`.execute(db);
      if (seq.rows.length > 0) await sql`delete from sqlite_sequence`.execute(db);
    }
  } finally {
    await sql`pragma foreign_keys = on`.execute(db);
  }
}

/**
 * Runs `body` once per database kind, inside `describe(name [kind])`. `body` gets a getter for the live database.
 * A kind that cannot run here gets one skipped test saying why.
 */
export function describeEachDatabase(name: string, body: (get: () => TestDatabase) => void): void {
  for (const factory of DATABASES) {
    if (factory.unavailable) {
      describe(`${name} [${factory.kind}]`, () => {
        test.skip(`${factory.kind} is not available: ${factory.unavailable}`, () => {});
      });
      continue;
    }
    describe(`${name} [${factory.kind}]`, () => {
      let current: TestDatabase | null = null;
      beforeAll(async () => {
        current = await factory.create();
      }, 180_000);
      afterAll(async () => {
        await current?.close();
        current = null;
      }, 60_000);
      body(() => {
        if (!current) throw new Error(`${factory.kind} is not available`);
        return current;
      });
    });
  }
}

/** Fills a database with a small generated dataset. */
export async function seedSmall(db: DB, universities = 60, seed = 7) {
  return writeRecords(db, generateDataset({ universities, seed }));
}
