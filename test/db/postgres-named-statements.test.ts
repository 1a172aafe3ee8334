import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Kysely, PostgresDialect, sql } from "kysely";
import pg from "pg";
import { type Database, getUniversity, migrate, universityScores, writeRecords } from "../../lib/index.ts";
import { NamedStatementClient, statementName } from "../../src/db/named-statements.ts";
import { testPostgres } from "../support/postgres-server.ts";

const available = await testPostgres();

test("statement names: one per text, none for statements that select *", () => {
  const text = 'select "id" from "universities" where "id" = $1';
  expect(statementName(text)).toMatch(/^unirank_\d+$/);
  expect(statementName(text)).toBe(statementName(text) as string);
  expect(statementName(`${text} `)).not.toBe(statementName(text) as string);
  expect(statementName('select * from "universities"')).toBeUndefined();
  expect(statementName('select "u".* from "universities" as "u"')).toBeUndefined();
  expect(statementName('select "a", * from "t"')).toBeUndefined();
  expect(statementName('select count(*) as "n" from "universities"')).toMatch(/^unirank_\d+$/);
});

describe.skipIf(!available.ok)(
  "PostgreSQL: one university is one round trip, prepared once per connection",
  () => {
    let db: Kysely<Database>;
    const statements: string[] = [];
    beforeAll(async () => {
      if (!available.ok) return;
      const url = await available.server.createDatabase("unirank_named");
      // One connection, so its prepared statements are the ones this test reads.
      const pool = new pg.Pool({ connectionString: url, max: 1, Client: NamedStatementClient });
      db = new Kysely<Database>({
        dialect: new PostgresDialect({ pool }),
        log: (event) => {
          if (event.level === "query") statements.push(event.query.sql);
        },
      });
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
      await db?.destroy();
    });

    test("getUniversity and universityScores: one statement each, prepared on first use and reused", async () => {
      const { id } = await db.selectFrom("universities").select("id").executeTakeFirstOrThrow();
      for (let i = 0; i < 3; i++) {
        statements.length = 0;
        expect((await getUniversity(db, Number(id))).latest_scan?.overall_score).toBe(71);
        expect(statements).toHaveLength(1);
        statements.length = 0;
        expect((await universityScores(db, Number(id))).overall_score).toBe(71);
        expect(statements).toHaveLength(1);
      }
      const prepared = await sql<{ name: string; statement: string }>`
      select name, statement from pg_prepared_statements where name like 'unirank_%'`.execute(db);
      const detail = prepared.rows.filter((r) => r.statement.includes('"latest_scans"'));
      // Each statement prepared once on this connection, by its name.
      expect(detail.length).toBeGreaterThanOrEqual(2);
      expect(new Set(detail.map((r) => r.name)).size).toBe(detail.length);
    });
  },
);
