import { expect, test } from "bun:test";
import { redactPath } from "../../lib/access/audit-log.ts";
import { createAuditLog, createKey, pruneAccessState, readAudit } from "../../lib/index.ts";
import { createAccessGuard } from "../../src/http/access.ts";
import { createApp } from "../../src/http/app.ts";
import { describeEachDatabase } from "../support/databases.ts";
import { testContext } from "../support/fixtures-app.ts";

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
  expect(redactPath(`/a?q=URK_${"b".repeat(36)}&s=urs_${"c".repeat(40)}&t=uRk_${"d".repeat(16)}`)).toBe(
    "/a?q=urk_REDACTED&s=urs_REDACTED&t=urk_REDACTED",
  );
  expect(redactPath("/a?q=urk_short&urk_")).toBe("/a?q=urk_short&urk_");
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

  test("entries recorded while a batch is written join the next full batch, not a write of their own", async () => {
    const { db } = get();
    await get().reset();
    let batches = 0;
    const audit = createAuditLog(db, {
      flushIntervalMs: 60_000,
      batchSize: 50,
      onWritten: () => batches++,
    });
    // As a busy server records them: one between each step of the writes under way.
    for (let i = 0; i < 1000; i++) {
      audit.record({
        at: new Date(T0 + i),
        request_id: `b${i}`,
        key_id: null,
        client_ip: "198.51.100.1",
        method: "GET",
        path: `/api/v2/rankings?page=${i}`,
        status: 200,
        duration_ms: 1,
      });
      await null;
    }
    await audit.close();
    const rows = await readAudit(db, { limit: 2000 });
    expect(rows.map((r) => r.request_id)).toEqual(Array.from({ length: 1000 }, (_, i) => `b${i}`));
    // 20 full batches; at most one more for what close() finds.
    expect(batches).toBeLessThanOrEqual(21);
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

describeEachDatabase("key material never reaches the audit log or an answer", (get) => {
  test("a key, a key written in upper case, a signing secret: not a request id, redacted from paths, not echoed", async () => {
    const { db } = get();
    await get().reset();
    const created = await createKey(db, { name: "audit", requireSignature: true });
    const secret = created.signing_secret ?? "";
    const material = [created.key, `URK_${created.key.slice(4)}`, `Urk_${created.key.slice(4)}`, secret];
    const access = createAccessGuard({
      db,
      clock: () => new Date(T0),
      anonymousLimit: 0,
      pruneIntervalMs: 0,
    });
    const app = createApp({ ...testContext(db, { cache: false }), access });
    const answers: string[] = [];
    const ask = async (path: string, headers: Record<string, string> = {}) => {
      const r = await app.handle(new Request(`http://unirank.test${path}`, { headers }), {
        remote: { address: "::1" },
      });
      answers.push(JSON.stringify([...r.headers]), await r.text());
      return r;
    };
    for (const value of material) {
      const r = await ask("/api/v2/rankings?limit=1", { "X-Request-Id": value });
      expect(r.headers.get("X-Request-Id")).toMatch(/^[0-9a-f-]{36}$/);
      await ask(`/api/v2/universities?search=${value}`);
      await ask(`/api/v2/universities?search=${encodeURIComponent(` ${value.toLowerCase()} `)}`);
      await ask(`/api/v2/nowhere/${value}`);
      await ask(`/api/v2/distribution?country=${value}&score=${value}`);
    }
    // A request id of its own kind is kept: echoed and audited as sent.
    const own = await ask("/api/v2/rankings?limit=1", { "X-Request-Id": "req-42:a.b_c" });
    expect(own.headers.get("X-Request-Id")).toBe("req-42:a.b_c");
    await access.close();
    const rows = await readAudit(db, { limit: 1000 });
    expect(rows.map((r) => r.request_id)).toContain("req-42:a.b_c");
    const stored = JSON.stringify(rows);
    for (const value of material) {
      const body = value.slice(4, 24);
      expect(stored.includes(body) ? `audit log holds ${value}` : "absent").toBe("absent");
      expect(answers.join("\n").includes(body) ? `an answer echoes ${value}` : "absent").toBe("absent");
    }
  });
});
