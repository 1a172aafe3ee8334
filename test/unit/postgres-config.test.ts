import { describe, expect, test } from "bun:test";
import { loadConfig } from "../../src/config.ts";
import { displayLocation } from "../../src/db/open.ts";
import { parsePostgresUrl } from "../../src/db/postgres.ts";

describe("PostgreSQL connection settings", () => {
  test("UNIRANK_PG_POOL becomes ?pool=, the URL's own pool wins, SQLite paths are left alone", () => {
    expect(loadConfig({ db: "postgres://u@h/db" }, { UNIRANK_PG_POOL: "4" }).db).toBe(
      "postgres://u@h/db?pool=4",
    );
    expect(loadConfig({}, { UNIRANK_DB: "postgres://u@h/db?pool=7", UNIRANK_PG_POOL: "4" }).db).toBe(
      "postgres://u@h/db?pool=7",
    );
    expect(loadConfig({ db: "/tmp/x.db" }, { UNIRANK_PG_POOL: "4" }).db).toBe("/tmp/x.db");
    expect(() => loadConfig({ db: "postgres://u@h/db" }, { UNIRANK_PG_POOL: "0" })).toThrow(
      /UNIRANK_PG_POOL/,
    );
    expect(() => loadConfig({ db: "postgres://u@h/db" }, { UNIRANK_PG_POOL: "ten" })).toThrow(
      /UNIRANK_PG_POOL/,
    );
  });

  test("pool parameters are taken off the URL; the driver's own stay", () => {
    const parsed = parsePostgresUrl(
      "postgres://u:p@h:5433/db?pool=3&sslmode=require&pool_timeout=2&pool_idle=5",
    );
    expect(parsed.options).toEqual({ poolSize: 3, poolTimeoutSeconds: 2, idleSeconds: 5 });
    expect(parsed.connectionString).toBe("postgres://u:p@h:5433/db?sslmode=require");
    expect(() => parsePostgresUrl("postgres://h/db?pool=0")).toThrow(/pool/);
    expect(() => parsePostgresUrl("postgres://h/db?pool_timeout=-1")).toThrow(/pool_timeout/);
  });

  test("passwords never reach logs", () => {
    expect(displayLocation("postgres://u:secret@h/db?pool=3")).toBe("postgres://u:***@h/db?pool=3");
    expect(displayLocation("postgresql://u@h/db")).toBe("postgresql://u@h/db");
    expect(displayLocation("/var/lib/unirank.db")).toBe("/var/lib/unirank.db");
  });
});
