import { beforeEach, expect, test } from "bun:test";
import { readGeneration } from "../../lib/db/generation.ts";
import {
  addReceiver,
  EVIDENCE_MAX_CHARS,
  type IngestRecord,
  IngestRejectedError,
  importRecords,
  listDeliveries,
  scanEvidence,
  writeRecords,
} from "../../lib/index.ts";
import { describeEachDatabase } from "../support/databases.ts";

const UNI: IngestRecord = {
  type: "university",
  domain: "life.example",
  name: "Life University",
  country: "SE",
};
const scan = (status: "pending" | "running" | "completed" | "failed", extra: Record<string, unknown> = {}) =>
  ({
    type: "scan",
    source_id: "life-1",
    domain: "life.example",
    status,
    started_at: status === "pending" ? null : "2026-03-01T11:00:00+00:00",
    completed_at: status === "completed" || status === "failed" ? "2026-03-01T12:00:00+00:00" : null,
    ...(status === "completed" ? { overall_score: 72.5, tech_ssl_score: 90 } : {}),
    ...extra,
  }) as IngestRecord;

describeEachDatabase("ingest writer", (get) => {
  beforeEach(async () => {
    await get().reset();
  });

  const stored = async () =>
    get()
      .db.selectFrom("scans")
      .select(["id", "status", "started_at", "completed_at", "overall_score", "tech_ssl_score"])
      .where("source_id", "=", "life-1")
      .executeTakeFirstOrThrow();
  const latest = async () =>
    get().db.selectFrom("latest_scans").select(["scan_id", "overall_score"]).execute();

  test("a scan moves from pending to running to completed through the write path, and fires once", async () => {
    const { db } = get();
    await addReceiver(db, { url: "http://127.0.0.1:9/a", secret: "a" });
    await addReceiver(db, { url: "http://127.0.0.1:9/b", secret: "b" });
    const first = await writeRecords(db, [UNI, scan("pending")]);
    expect(first.counts.scans.inserted).toBe(1);
    const { id } = await stored();
    expect((await stored()).status).toBe("pending");
    expect(await latest()).toEqual([]);

    let generation = await readGeneration(db);
    const running = await writeRecords(db, [scan("running")]);
    expect(running.counts.scans.updated).toBe(1);
    expect(await stored()).toMatchObject({ id, status: "running", started_at: "2026-03-01T11:00:00+00:00" });
    expect(await readGeneration(db)).toBe(generation + 1);
    expect(await listDeliveries(db, { limit: 10 })).toEqual([]);

    generation = await readGeneration(db);
    const done = await writeRecords(db, [scan("completed", { evidence: { tls: "1.3", pages: [1, 2] } })]);
    expect(done.counts.scans.updated).toBe(1);
    expect(done.deliveries).toBe(2);
    expect(await stored()).toMatchObject({
      id,
      status: "completed",
      overall_score: 72.5,
      tech_ssl_score: 90,
    });
    expect(await latest()).toEqual([{ scan_id: id, overall_score: 72.5 }]);
    expect(await readGeneration(db)).toBe(generation + 1);
    expect(await scanEvidence(db, id)).toEqual({ tls: "1.3", pages: [1, 2] });

    // Final: the same content again changes nothing and fires nothing, not even a generation.
    generation = await readGeneration(db);
    const again = await writeRecords(db, [scan("completed", { evidence: { tls: "1.3", pages: [1, 2] } })]);
    expect(again.counts.scans).toEqual({ inserted: 0, updated: 0, unchanged: 1 });
    expect(await readGeneration(db)).toBe(generation);
    const deliveries = await listDeliveries(db, { limit: 10 });
    expect(deliveries).toHaveLength(2);
    expect(deliveries.every((d) => d.scan_id === id)).toBe(true);

    // Other content for a final scan is refused, as in the import, and nothing is written.
    for (const changed of [
      scan("completed", { overall_score: 10, evidence: { tls: "1.3", pages: [1, 2] } }),
      scan("completed", { evidence: { tls: "1.2" } }),
      scan("completed"),
      scan("running"),
      scan("failed"),
    ]) {
      const refused = await writeRecords(db, [changed]).catch((e) => e);
      expect(refused).toBeInstanceOf(IngestRejectedError);
      expect(String(refused.message)).toContain("already stored as completed");
    }
    expect(await stored()).toMatchObject({ id, status: "completed", overall_score: 72.5 });
    expect(await scanEvidence(db, id)).toEqual({ tls: "1.3", pages: [1, 2] });
    expect(await listDeliveries(db, { limit: 10 })).toHaveLength(2);
  });

  test("a failed scan is final; a running one may fail", async () => {
    const { db } = get();
    await writeRecords(db, [UNI, scan("running")]);
    const failed = await writeRecords(db, [scan("failed", { evidence: { error: "timeout" } })]);
    expect(failed.counts.scans.updated).toBe(1);
    const { id, status } = await stored();
    expect(status).toBe("failed");
    expect(await scanEvidence(db, id)).toEqual({ error: "timeout" });
    expect(
      (await writeRecords(db, [scan("failed", { evidence: { error: "timeout" } })])).counts.scans,
    ).toEqual({
      inserted: 0,
      updated: 0,
      unchanged: 1,
    });
    expect(await writeRecords(db, [scan("completed")]).catch((e) => e)).toBeInstanceOf(IngestRejectedError);
    expect((await stored()).status).toBe("failed");
    expect(await latest()).toEqual([]);
  });

  test("a completed record in the same write as its pending one moves it on once", async () => {
    const { db } = get();
    await addReceiver(db, { url: "http://127.0.0.1:9/a", secret: "a" });
    const r = await writeRecords(db, [UNI, scan("pending"), scan("running"), scan("completed")]);
    expect(r.counts.scans).toEqual({ inserted: 1, updated: 2, unchanged: 0 });
    expect(r.deliveries).toBe(1);
    expect((await stored()).status).toBe("completed");
  });

  test("evidence: a JSON object up to the cap, stored with the scan; anything else is refused", async () => {
    const { db } = get();
    const big = { text: "x".repeat(EVIDENCE_MAX_CHARS) };
    for (const evidence of [[1, 2], "text", 42, big]) {
      const e = await writeRecords(db, [UNI, scan("completed", { evidence })]).catch((x) => x);
      expect(e).toBeInstanceOf(IngestRejectedError);
      expect(String(e.message)).toMatch(/evidence/);
    }
    expect(await db.selectFrom("scans").select("id").execute()).toEqual([]);

    const r = await importRecords(db, [
      {
        name: "e.csv",
        format: "csv",
        content: [
          'type,domain,name,country,source_id,status,completed_at,overall_score,evidence\nuniversity,life.example,Life,SE,,,,,\nscan,life.example,,,c1,completed,2026-03-01 12:00:00,50,"{""hsts"":true}"\nscan,life.example,,,c2,completed,2026-03-01 12:00:00,50,"[1]"\n',
        ],
      },
    ]);
    expect(r.issues.map((i) => `${i.line}: ${i.message}`)).toEqual(["4: evidence must be a JSON object"]);
    const ok = await importRecords(db, [
      {
        name: "e.ndjson",
        records: [
          UNI,
          { ...scan("completed"), source_id: "n1", evidence: { hsts: true } },
          { ...scan("completed"), source_id: "n2" },
        ],
      },
    ]);
    expect(ok.committed).toBe(true);
    const ids = await db.selectFrom("scans").select(["id", "source_id"]).orderBy("source_id").execute();
    expect(await scanEvidence(db, Number(ids[0]?.id))).toEqual({ hsts: true });
    expect(await scanEvidence(db, Number(ids[1]?.id))).toBeNull();
    expect(await scanEvidence(db, 999_999)).toBeNull();
  });
});
