import { afterAll, beforeAll, describe } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type DB, generateDataset, migrate, writeRecords } from "../../lib/index.ts";
import { openSqlite } from "../../src/db/open.ts";

/** A database a test suite runs against; tests loop over every available kind (as Kysely's tests loop over dialects). */
export interface TestDatabase {
  kind: string;
  db: DB;
  /** Removes every row (schema stays). */
  reset(): Promise<void>;
  close(): Promise<void>;
}

export interface DatabaseFactory {
  kind: string;
  /** Null when this kind cannot run here (the suite then says so and skips it). */
  create(): Promise<TestDatabase | null>;
}

export function tempDir(prefix = "unirank-test-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

const sqliteFile: DatabaseFactory = {
  kind: "sqlite",
  async create() {
    const dir = tempDir();
    const opened = openSqlite(join(dir, "test.db"));
    await migrate(opened.db);
    return {
      kind: "sqlite",
      db: opened.db,
      reset: () => resetAll(opened.db),
      async close() {
        await opened.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
};

/** Every database kind the suite runs on. */
export const DATABASES: DatabaseFactory[] = [sqliteFile];

const TABLES = ["latest_scans", "scans", "universities", "unirank_meta"];

export async function resetAll(db: DB): Promise<void> {
  // biome-ignore lint/suspicious/noExplicitAny: every table, typed or not
  for (const t of TABLES) await db.deleteFrom(t as any).execute();
}

/**
 * Runs `body` once per database kind, inside `describe(kind)`. `body` gets a getter for the live database.
 */
export function describeEachDatabase(name: string, body: (get: () => TestDatabase) => void): void {
  for (const factory of DATABASES) {
    describe(`${name} [${factory.kind}]`, () => {
      let current: TestDatabase | null = null;
      beforeAll(async () => {
        current = await factory.create();
      });
      afterAll(async () => {
        await current?.close();
      });
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
