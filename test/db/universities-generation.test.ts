import { afterAll, beforeAll, expect, test } from "bun:test";
import { sql } from "kysely";
import { readGenerations, setGenerationWindow } from "../../lib/db/generation.ts";
import {
  type DB,
  type IngestRecord,
  listUniversities,
  rankings,
  stats,
  writeRecords,
} from "../../lib/index.ts";
import { searchIndex } from "../../lib/queries/search-index.ts";
import { universityOrder } from "../../lib/queries/university-order.ts";
import { removeDemoUniversities } from "../../lib/write/demo-universities.ts";
import { describeEachDatabase } from "../support/databases.ts";
import { writeFixture } from "../support/fixtures.ts";

/**
 * The universities generation (migration 011): what is derived from `universities` alone (the list's order, the
 * search index) is kept while scans come in, and built again after any change of the table, by unirank's writers
 * or by raw SQL (the data triggers). The generation window is 0: every read sees the latest commit.
 */
const scan = (sourceId: string, domain: string, overall: number): IngestRecord => ({
  type: "scan",
  source_id: sourceId,
  domain,
  status: "completed",
  started_at: "2026-06-01T11:00:00+00:00",
  completed_at: "2026-06-01T12:00:00+00:00",
  overall_score: overall,
});

/** The derived structures of now, to compare by identity. */
const derived = async (db: DB) => ({ order: await universityOrder(db), index: await searchIndex(db) });

describeEachDatabase("universities generation: scans keep what is derived from universities alone", (get) => {
  beforeAll(async () => {
    setGenerationWindow(0);
    await writeFixture(get().db);
  });
  afterAll(() => setGenerationWindow(1));

  test("a written scan moves the data generation only: the order and the search index are kept", async () => {
    const { db } = get();
    const before = await readGenerations(db);
    const kept = await derived(db);
    const top = (await rankings(db, { limit: 1 })).data[0];
    const counted = await stats(db);
    await writeRecords(db, [scan("ug-1", "kappa.gb.example", 99.9)]);
    const after = await readGenerations(db);
    expect(after.data).toBe(before.data + 1);
    expect(after.universities).toBe(before.universities);
    const now = await derived(db);
    expect(now.order).toBe(kept.order);
    expect(now.index).toBe(kept.index);
    // What follows the scans moved.
    const newTop = (await rankings(db, { limit: 1 })).data[0];
    expect(newTop?.domain).toBe("kappa.gb.example");
    expect(newTop?.id).not.toBe(top?.id);
    // The statistics are read per generation too: the scan counts at once, the universities stay.
    expect(await stats(db)).toMatchObject({
      total_scans: counted.total_scans + 1,
      total_universities: counted.total_universities,
      last_scan_at: "2026-06-01T12:00:00+00:00",
    });
  });

  test("a written university moves both, and the list and search show it at once", async () => {
    const { db } = get();
    const kept = await derived(db);
    const counted = await stats(db);
    await writeRecords(db, [
      { type: "university", domain: "aardvark.nl.example", name: "Aardvark Hogeschool", country: "NL" },
    ]);
    expect((await stats(db)).total_universities).toBe(counted.total_universities + 1);
    const g = await readGenerations(db);
    expect(g.universities).toBe(g.data);
    const now = await derived(db);
    expect(now.order).not.toBe(kept.order);
    expect(now.index).not.toBe(kept.index);
    expect((await listUniversities(db, { limit: 1 })).data[0]?.domain).toBe("aardvark.nl.example");
    expect((await listUniversities(db, { search: "aardvark hog" })).meta.total).toBe(1);

    // A rename through the writer: the old name is gone from search.
    await writeRecords(db, [
      { type: "university", domain: "aardvark.nl.example", name: "Zebra Hogeschool", country: "NL" },
    ]);
    expect((await listUniversities(db, { search: "aardvark hog" })).meta.total).toBe(0);
    expect((await listUniversities(db, { search: "zebra hog" })).meta.total).toBe(1);
  });

  test("raw SQL: a scan leaves the universities generation; an insert, update or delete of a university moves it", async () => {
    const { db } = get();
    const kept = await derived(db);
    const { id } = await db
      .selectFrom("universities")
      .select("id")
      .where("domain", "=", "kappa.gb.example")
      .executeTakeFirstOrThrow();
    const before = await readGenerations(db);
    const counted = await stats(db);
    await sql`insert into scans (university_id, source_id, status, started_at, completed_at, overall_score)
      values (${id}, 'ug-raw', 'completed', '2026-07-01T11:00:00+00:00', '2026-07-01T12:00:00+00:00', 12)`.execute(
      db,
    );
    let g = await readGenerations(db);
    expect(g.data).toBeGreaterThan(before.data);
    expect(g.universities).toBe(before.universities);
    expect((await derived(db)).index).toBe(kept.index);
    expect((await stats(db)).total_scans).toBe(counted.total_scans + 1);

    const steps = [
      sql`insert into universities (domain, name, country, created_at, search_text)
        values ('raw-uni.fi.example', 'Raw Insert Yliopisto', 'FI', '2026-07-01 00:00:00', 'raw insert yliopisto raw-uni.fi.example')`,
      sql`update universities set name = 'Raw Update Yliopisto' where domain = 'raw-uni.fi.example'`,
      sql`delete from universities where domain = 'raw-uni.fi.example'`,
    ];
    const expected = [1, 1, 0];
    const universities = [1, 1, 0].map((n) => counted.total_universities + n);
    const searchFor = ["raw insert", "raw update", "raw update"];
    let last = (await derived(db)).index;
    for (const [i, step] of steps.entries()) {
      const previous = g;
      await step.execute(db);
      g = await readGenerations(db);
      // Set after the data generation's own bump: the two are equal.
      expect(g.universities).toBeGreaterThan(previous.universities);
      expect(g.universities).toBe(g.data);
      const index = (await derived(db)).index;
      expect(index).not.toBe(last);
      last = index;
      expect((await listUniversities(db, { search: searchFor[i] })).meta.total).toBe(expected[i] as number);
      expect((await stats(db)).total_universities).toBe(universities[i] as number);
    }
  });

  test("removing the demo universities moves it", async () => {
    const { db } = get();
    const before = await readGenerations(db);
    const removed = await removeDemoUniversities(db);
    expect(removed.universities).toBeGreaterThan(0);
    const g = await readGenerations(db);
    expect(g.universities).toBe(g.data);
    expect(g.universities).toBeGreaterThan(before.universities);
    expect((await listUniversities(db, {})).meta.total).toBe(0);
  });

  test("without the key (a database reset, an older writer) the universities generation is the data generation", async () => {
    const { db } = get();
    await sql`delete from unirank_meta where key = 'universities_generation'`.execute(db);
    const g = await readGenerations(db);
    expect(g.universities).toBe(g.data);
  });
});
