import { expect, test } from "bun:test";
import { sql } from "kysely";
import { createKey, type DB, readAudit, signRequest } from "../../lib/index.ts";
import { sqliteStorageFault } from "../../src/db/bun-sqlite-dialect.ts";
import { postgresStorageFault } from "../../src/db/postgres-storage-fault.ts";
import { StorageHealth } from "../../src/db/storage-health.ts";
import { createAccessGuard } from "../../src/http/access.ts";
import { createApp } from "../../src/http/app.ts";
import { describeEachDatabase } from "../support/databases.ts";
import { testContext } from "../support/fixtures-app.ts";

/**
 * The access state refusing writes (a full disk, as PostgreSQL reports it; on SQLite a trigger's abort, the file
 * level being covered by test/process/storage-faults.test.ts): each kind of write fails its documented way.
 */

const TABLES = ["rate_limit_hits", "signature_replays", "audit_log"];

async function refuseWrites(db: DB, kind: string) {
  for (const table of TABLES) {
    if (kind === "sqlite") {
      await sql`create trigger ${sql.raw(`refuse_${table}`)} before insert on ${sql.table(table)} begin select raise(abort, 'database or disk is full'); end`.execute(
        db,
      );
    } else {
      await sql`create or replace function refuse_write() returns trigger language plpgsql as $$ begin raise exception 'could not extend file' using errcode = 'disk_full'; end $$`.execute(
        db,
      );
      await sql`create trigger ${sql.raw(`refuse_${table}`)} before insert on ${sql.table(table)} for each row execute function refuse_write()`.execute(
        db,
      );
    }
  }
}

async function allowWrites(db: DB, kind: string) {
  for (const table of TABLES)
    await sql`drop trigger ${sql.raw(`refuse_${table}`)}${sql.raw(kind === "sqlite" ? "" : ` on ${table}`)}`.execute(
      db,
    );
}

describeEachDatabase("access state that refuses writes", (get) => {
  test("limits go on in memory, the audit log waits in memory, signed requests are refused; then all recovers", async () => {
    const { db, kind } = get();
    await get().reset();
    const key = await createKey(db, { name: "signed", requireSignature: true });
    const storage = new StorageHealth(
      () => {},
      kind === "sqlite" ? sqliteStorageFault : postgresStorageFault,
    );
    const access = createAccessGuard({
      db,
      clock: () => new Date(),
      anonymousLimit: 3,
      pruneIntervalMs: 0,
      storage,
    });
    const app = createApp({
      ...testContext(db, { cache: false, hostChecks: { failingWrites: () => storage.failingWrites() } }),
      access,
    });
    const ask = (path: string, headers: Record<string, string> = {}) =>
      app.handle(new Request(`http://unirank.test${path}`, { headers }), {
        remote: { address: "198.51.100.7" },
      });
    expect((await ask("/api/v2/rankings?limit=1")).headers.get("X-RateLimit-Remaining")).toBe("2");
    await access.audit.flush();

    await refuseWrites(db, kind);
    // Counted by this process alone from here: 3 more are admitted, the 4th refused.
    const remaining: (string | null)[] = [];
    for (let i = 0; i < 4; i++) {
      const r = await ask("/api/v2/rankings?limit=1");
      remaining.push(`${r.status} ${r.headers.get("X-RateLimit-Remaining")}`);
    }
    expect(remaining).toEqual(["200 2", "200 1", "200 0", "429 0"]);
    const ts = Math.floor(Date.now() / 1000);
    const signed = await ask("/api/v1/stats", {
      "X-API-Key": key.key,
      "X-Timestamp": String(ts),
      "X-Signature": signRequest(key.signing_secret ?? "", ts, "GET", "/api/v1/stats"),
    });
    expect(signed.status).toBe(503);
    expect(((await signed.json()) as { error: { code: string } }).error.code).toBe("UNAVAILABLE");
    await access.audit.flush();
    const cause = kind === "sqlite" ? "write failed" : "storage full";
    const health = (await (await ask("/health")).json()) as {
      status: string;
      checks: { writes: { failing: { what: string; cause: string }[] } };
    };
    expect(health.status).toBe("degraded");
    expect(health.checks.writes.failing.map((f) => [f.what, f.cause]).sort()).toEqual([
      ["audit log", cause],
      ["rate limits", cause],
      ["signature replays", cause],
    ]);
    expect((await readAudit(db)).length).toBe(1);

    await allowWrites(db, kind);
    // The database counts again (what this process counted in memory meanwhile is not carried over).
    expect((await ask("/api/v2/rankings?limit=1")).headers.get("X-RateLimit-Remaining")).toBe("1");
    await access.audit.flush();
    // The rows kept while the storage refused them are all written now.
    expect((await readAudit(db)).length).toBe(7);
    const healed = (await (await ask("/health")).json()) as { status: string; checks: { writes: unknown } };
    expect(healed.checks.writes).toEqual({ status: "ok" });
    await access.close();
    if (kind !== "sqlite") await sql`drop function refuse_write()`.execute(db);
  }, 30_000);
});
