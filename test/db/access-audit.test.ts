import { expect, test } from "bun:test";
import { redactPath } from "../../lib/access/audit-log.ts";
import { createAuditLog, pruneAccessState, readAudit } from "../../lib/index.ts";
import { describeEachDatabase } from "../support/databases.ts";

const T0 = Date.parse("2026-03-01T12:00:00Z");
const DAY = 86_400_000;

test("redactPath removes api_key values however the name is written, and anything shaped like a key", () => {
  expect(redactPath("/api/v1/stats?api_key=urk_x&limit=2")).toBe("/api/v1/stats?api_key=REDACTED&limit=2");
  expect(redactPath("/a?API_KEY=1&api%5Fkey=2&api_key&x=api_key")).toBe(
    "/a?API_KEY=REDACTED&api%5Fkey=REDACTED&api_key=REDACTED&x=api_key",
  );
  expect(redactPath("/a?api_key=1&api_key=2")).toBe("/a?api_key=REDACTED&api_key=REDACTED");
  const key = `urk_${"a".repeat(36)}`;
  expect(redactPath(`/api/v2/universities/${key}?q=${key}`)).toBe(
    "/api/v2/universities/urk_REDACTED?q=urk_REDACTED",
  );
  expect(redactPath("/plain")).toBe("/plain");
  expect(redactPath(`/${"x".repeat(5000)}`).length).toBeLessThan(2100);
});

describeEachDatabase("audit log", (get) => {
  test("buffers, writes in batches, reads back with --since, and keeps the key out", async () => {
    const { db } = get();
    await get().reset();
    const audit = createAuditLog(db, { flushIntervalMs: 60_000, batchSize: 50 });
    const entry = (i: number) => ({
      at: new Date(T0 + i * 1000),
      request_id: `r${i}`,
      key_id: i % 2 ? 7 : null,
      client_ip: "198.51.100.1",
      method: "GET",
      path: `/api/v2/universities?page=${i}&api_key=urk_secret`,
      status: 200,
      duration_ms: 1.23456,
    });
    for (let i = 0; i < 30; i++) audit.record(entry(i));
    // Below the batch size and before the interval: nothing written yet (record() never waits on the database).
    expect((await readAudit(db)).length).toBe(0);
    for (let i = 30; i < 120; i++) audit.record(entry(i));
    await audit.close();
    const rows = await readAudit(db, { limit: 1000 });
    expect(rows.length).toBe(120);
    expect(rows[0]).toEqual({
      id: rows[0]?.id ?? 0,
      time: "2026-03-01T12:00:00+00:00",
      request_id: "r0",
      key_id: null,
      client_ip: "198.51.100.1",
      method: "GET",
      path: "/api/v2/universities?page=0&api_key=REDACTED",
      status: 200,
      duration_ms: 1.235,
    });
    expect(JSON.stringify(rows)).not.toContain("urk_secret");
    const since = await readAudit(db, { since: new Date(T0 + 100_000) });
    expect(since.map((r) => r.request_id)).toEqual(Array.from({ length: 20 }, (_, i) => `r${100 + i}`));
    const page = await readAudit(db, { afterId: rows[9]?.id, limit: 5 });
    expect(page.map((r) => r.request_id)).toEqual(["r10", "r11", "r12", "r13", "r14"]);
  });

  test("retention removes rows older than the setting (0 keeps everything)", async () => {
    const { db } = get();
    await get().reset();
    let now = T0;
    const audit = createAuditLog(db, { clock: () => new Date(now), retentionDays: 30 });
    for (const age of [40, 31, 30.5, 29, 1, 0]) {
      audit.record({
        at: new Date(T0 - age * DAY),
        request_id: `age-${age}`,
        key_id: null,
        client_ip: "::1",
        method: "GET",
        path: "/api/v2/schema",
        status: 200,
        duration_ms: 1,
      });
    }
    await audit.flush();
    expect(await pruneAccessState(db, { now: new Date(T0), auditRetentionDays: 0 })).toEqual({
      auditRowsDeleted: 0,
    });
    expect((await readAudit(db)).length).toBe(6);
    expect(await audit.prune()).toBe(3);
    expect((await readAudit(db)).map((r) => r.request_id)).toEqual(["age-29", "age-1", "age-0"]);
    now = T0 + 1.5 * DAY;
    expect(await audit.prune()).toBe(1);
    expect((await readAudit(db)).map((r) => r.request_id)).toEqual(["age-1", "age-0"]);
    await audit.close();
  });
});
