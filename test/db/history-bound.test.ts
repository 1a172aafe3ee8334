import { expect, test } from "bun:test";
import { sql } from "kysely";
import { type DB, exportUniversity, type IngestRecord, scanHistory, writeRecords } from "../../lib/index.ts";
import { createFetchHandler } from "../../src/fetch-handler.ts";
import {
  HISTORY_SCANS_KEPT,
  historyTableOf,
  keepHistories,
  NOT_KEPT,
} from "../../src/http/spliced-json/history-table.ts";
import { JsonWriter, jsonOf } from "../../src/http/spliced-json/json-text.ts";
import { splicedExport } from "../../src/http/spliced-json/spliced-export.ts";
import { splicedScanHistory } from "../../src/http/spliced-json/spliced-history.ts";
import { describeEachDatabase } from "../support/databases.ts";

/**
 * Every university's history is kept in memory only up to a bound of completed scans (`keepHistories`, the
 * server's `--history-scans`): past it, by a build or by a write, the histories and exports are the database's
 * answers, byte for byte the same.
 */
const UNIVERSITIES = 30;
const CLOCK = () => new Date("2026-11-30T00:00:00Z");

/** Universities with one to three completed scans each, and one failed scan (not in any history). */
function records(): IngestRecord[] {
  const out: IngestRecord[] = [];
  for (let i = 0; i < UNIVERSITIES; i++) {
    const domain = `h${i}.bound.example`;
    out.push({ type: "university", domain, name: `Bound University ${i}`, country: "DE" });
    for (let k = 0; k <= i % 3; k++) {
      out.push({
        type: "scan",
        source_id: `bound-${i}-${k}`,
        domain,
        status: "completed",
        completed_at: `2026-0${1 + k}-1${i % 10}T08:00:00+00:00`,
        overall_score: 40 + ((i * 7 + k) % 50) / 2,
        tech_composite_score: (i % 10) + k / 10,
      });
    }
  }
  out.push({ type: "scan", source_id: "bound-failed", domain: "h0.bound.example", status: "failed" });
  return out;
}

const completedScans = async (db: DB) =>
  Number(
    (
      await db
        .selectFrom("scans")
        .select((eb) => eb.fn.countAll().as("n"))
        .where("status", "=", "completed")
        .executeTakeFirstOrThrow()
    ).n,
  );

const universityIds = async (db: DB) =>
  (await db.selectFrom("universities").select("id").orderBy("id").execute()).map((r) => Number(r.id));

/** Runs `body` with the histories of `db` bounded at `scans`, then puts the default bound back. */
async function bounded(db: DB, scans: number, body: () => Promise<void>): Promise<void> {
  keepHistories(db, scans);
  try {
    await body();
  } finally {
    keepHistories(db, HISTORY_SCANS_KEPT);
  }
}

/** Every university's history and export: the same bytes as the core's, and whether memory answered them. */
async function answers(db: DB): Promise<{ fromMemory: number; fromDatabase: number }> {
  let fromMemory = 0;
  let fromDatabase = 0;
  for (const id of await universityIds(db)) {
    const core = JSON.stringify(await scanHistory(db, id));
    const history = await splicedScanHistory(db, id);
    expect(JSON.stringify({ data: JSON.parse(jsonOf(history.data)), meta: history.meta })).toBe(core);
    if (history.data instanceof JsonWriter) fromMemory++;
    else fromDatabase++;
    const exported = await splicedExport(db, id, CLOCK);
    expect(jsonOf(exported)).toBe(JSON.stringify(await exportUniversity(db, id, { clock: CLOCK })));
  }
  return { fromMemory, fromDatabase };
}

describeEachDatabase("history bound: past it by a build", (get) => {
  test("a build past the bound keeps no table; every history is the database's", async () => {
    const db = get().db;
    await writeRecords(db, records());
    const scans = await completedScans(db);
    expect(scans).toBe(60);
    await bounded(db, scans - 1, async () => {
      expect(await historyTableOf(db)).toBe(NOT_KEPT);
      expect(await answers(db)).toEqual({ fromMemory: 0, fromDatabase: UNIVERSITIES });
    });
  });
});

describeEachDatabase("history bound: past it by the rows read, the count behind", (get) => {
  test("a build whose count says under the bound stops reading once the rows pass it", async () => {
    const db = get().db;
    await writeRecords(db, records());
    const scans = await completedScans(db);
    // The count the build asks first (`completedScanCount`) made to say none, as a write after it would.
    await sql`update latest_scans set scan_count = 0`.execute(db);
    await bounded(db, scans - 1, async () => {
      expect(await historyTableOf(db)).toBe(NOT_KEPT);
      expect(await answers(db)).toEqual({ fromMemory: 0, fromDatabase: UNIVERSITIES });
    });
  });
});

describeEachDatabase("history bound: past it by a write", (get) => {
  test("a table at the bound is kept; a write past it lets it go, and the histories are the database's", async () => {
    const db = get().db;
    await writeRecords(db, records());
    const scans = await completedScans(db);
    await bounded(db, scans, async () => {
      const table = await historyTableOf(db);
      expect(table).not.toBe(NOT_KEPT);
      if (table === NOT_KEPT) return;
      expect(table.scanId.length).toBe(scans);
      expect(await answers(db)).toEqual({ fromMemory: UNIVERSITIES, fromDatabase: 0 });
      // A failed scan adds no entry: the table is patched and stays.
      await writeRecords(db, [
        { type: "scan", source_id: "bound-failed-2", domain: "h1.bound.example", status: "failed" },
      ]);
      expect(await historyTableOf(db)).not.toBe(NOT_KEPT);
      await writeRecords(db, [
        {
          type: "scan",
          source_id: "bound-past",
          domain: "h1.bound.example",
          status: "completed",
          completed_at: "2026-11-20T08:00:00+00:00",
          overall_score: 61.5,
        },
      ]);
      expect(await historyTableOf(db)).toBe(NOT_KEPT);
      expect(await answers(db)).toEqual({ fromMemory: 0, fromDatabase: UNIVERSITIES });
      expect(JSON.stringify(await scanHistory(db, (await universityIds(db))[1] as number))).toContain(
        "2026-11-20T08:00:00+00:00",
      );
    });
  });
});

describeEachDatabase("history bound: an embedder's `historyScans`", (get) => {
  test("the fetch handler's option bounds the histories; a bound that is not a whole number is refused", async () => {
    const db = get().db;
    await writeRecords(db, records());
    expect(() => createFetchHandler({ db, access: false, historyScans: -1 })).toThrow(/historyScans/);
    expect(() => createFetchHandler({ db, access: false, historyScans: 1.5 })).toThrow(/historyScans/);
    const handle = createFetchHandler({ db, access: false, historyScans: 0 });
    try {
      const id = (await universityIds(db))[2] as number;
      const response = await handle(new Request(`http://unirank.test/api/v2/universities/${id}/history`));
      expect(response.status).toBe(200);
      const body = (await response.json()) as { data: unknown[] };
      expect(body.data).toEqual(JSON.parse(JSON.stringify((await scanHistory(db, id)).data)));
      expect(body.data).toHaveLength(3);
      expect(await historyTableOf(db)).toBe(NOT_KEPT);
    } finally {
      await handle.close();
      keepHistories(db, HISTORY_SCANS_KEPT);
    }
  });
});
