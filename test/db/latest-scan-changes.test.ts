import { afterAll, beforeAll, expect, test } from "bun:test";
import { sql } from "kysely";
import { readGeneration, setGenerationWindow } from "../../lib/db/generation.ts";
import { LOGGED_GENERATIONS, latestChangesBetween } from "../../lib/db/latest-changes.ts";
import {
  CATEGORY_NAMES,
  type DB,
  type IngestRecord,
  RANKED_SCORES,
  regressions,
  stats,
  writeRecords,
} from "../../lib/index.ts";
import { rankAt, rankedRows, rankingOf, scoreAt } from "../../lib/queries/rank.ts";
import { rankedDetailsOf } from "../../lib/queries/ranked-details.ts";
import { declinesOf } from "../../lib/queries/regressions.ts";
import { scanTotals } from "../../lib/queries/scan-totals.ts";
import { latestScoresOf } from "../../lib/queries/university-scores.ts";
import type { RankedScoreName } from "../../lib/scores/catalogue.ts";
import { round1 } from "../../lib/scores/derive.ts";
import { latestScoresJson, latestScoreTextsOf } from "../../src/http/spliced-json/latest-score-texts.ts";
import {
  compositesAt,
  listSlotsOf,
  rankedRowsOf,
  scanMembersAt,
} from "../../src/http/spliced-json/ranked-row-texts.ts";
import { universityAt, universityTextsOf } from "../../src/http/spliced-json/university-texts.ts";
import { describeEachDatabase } from "../support/databases.ts";

/**
 * After a write of scans alone, the rankings, the declines of regressions and the serialised ranking rows kept in
 * memory are patched with the universities the write changed (`latest_scan_changes`, migration 012) instead of read again whole. A patched
 * value must be what a build gives: the order, ties and competition ranks of the SQL, the texts of every ranked
 * university. The generation window is 0: every read sees the latest commit.
 */
const COUNT = 60;
const COUNTRIES = ["DE", "JP", "FR"];
const domain = (i: number) => `u${i}.patch.example`;

/** Scores from a small set, so that ties are many; some null. */
function scan(i: number, n: number, seed: number): IngestRecord {
  const pick = (k: number) => ((i * 7 + n * 13 + seed * 5 + k) % 9) * 10;
  return {
    type: "scan",
    source_id: `patch-${i}-${n}`,
    domain: domain(i),
    status: "completed",
    completed_at: `2026-0${1 + (n % 9)}-1${i % 10}T08:00:00+00:00`,
    overall_score: pick(0),
    webo_composite_score: (i + n) % 5 === 0 ? null : pick(1),
    tech_composite_score: pick(2),
    research_composite_score: (i + n) % 3 === 0 ? null : pick(3),
    presence_composite_score: pick(4),
    tech_ssl_score: pick(5),
    profile: (i + n) % 4 === 0 ? "site" : "site,browser",
  } as IngestRecord;
}

/** A scan not yet completed: no scores. */
const unfinished = (i: number, n: number, status: "pending" | "running"): IngestRecord => ({
  type: "scan",
  source_id: `patch-${i}-${n}`,
  domain: domain(i),
  status,
  started_at: status === "running" ? "2026-06-01T08:00:00+00:00" : null,
  completed_at: null,
});

/** The reference: the ranking as the SQL orders it, with competition ranks. */
async function sqlRanking(db: DB, score: RankedScoreName, country: string, profile: string) {
  let q = db
    .selectFrom("latest_scans")
    .select(["university_id", sql<number>`${sql.ref(score)}`.as("score")])
    .where(score, "is not", null);
  if (country !== "") q = q.where("country", "=", country);
  if (profile !== "") q = q.where("profile", "=", profile);
  const rows = await q.orderBy(score, "desc").orderBy("university_id", "asc").execute();
  const ids = rows.map((r) => Number(r.university_id));
  const scores = rows.map((r) => Number(r.score));
  const ranks: number[] = [];
  scores.forEach((s, i) => {
    ranks.push(i > 0 && s === scores[i - 1] ? (ranks[i - 1] as number) : i + 1);
  });
  return { ids, scores, ranks };
}

const KEYS: [RankedScoreName, string, string][] = [
  ...RANKED_SCORES.map((s): [RankedScoreName, string, string] => [s, "", ""]),
  ["overall_score", "JP", ""],
  ["overall_score", "", "site"],
  ["tech_ssl_score" as RankedScoreName, "DE", "site,browser"],
];

/** Another handle on the same database: the memos are per handle, so its values are built afresh. */
const freshHandle = (db: DB): DB =>
  db.withPlugin({ transformQuery: (a) => a.node, transformResult: async (a) => a.result });

/** Every ranking of `KEYS` as the SQL orders it, with its competition ranks. */
async function expectRankingsAsSql(db: DB) {
  for (const [score, country, profile] of KEYS) {
    const r = await rankingOf(db, score, country || undefined, profile || null);
    const want = await sqlRanking(db, score, country, profile);
    expect({
      key: [score, country, profile],
      ids: [...r.ids],
      scores: Array.from(r.ids, (_, i) => scoreAt(r, i)),
      // Ranks as pages of 7 give them (a page may start inside ties), and position by position.
      ranks: Array.from({ length: Math.ceil(r.ids.length / 7) }, (_, p) =>
        rankedRows(r, p * 7, Math.min(r.ids.length, p * 7 + 7)).map((row) => row.rank),
      ).flat(),
    }).toEqual({ key: [score, country, profile], ...want });
    expect(Array.from(r.ids, (_, i) => rankAt(r, i))).toEqual(want.ranks);
  }
}

async function expectAsBuilt(db: DB) {
  const fresh = freshHandle(db);
  for (const category of CATEGORY_NAMES) {
    const [kept, built] = [await declinesOf(db, category), await declinesOf(fresh, category)];
    expect({ category, ids: [...kept.ids], drops: [...kept.drops], completed: [...kept.completed] }).toEqual({
      category,
      ids: [...built.ids],
      drops: [...built.drops],
      completed: [...built.completed],
    });
    // The rows kept with the declines (filled by the previous rounds' reads) are what a build reads.
    const params = { category, days: 3650, min_drop: 0, limit: 100 };
    const clock = () => new Date("2026-11-20T00:00:00Z");
    expect(await regressions(db, params, { clock })).toEqual(await regressions(fresh, params, { clock }));
  }
  await expectRankingsAsSql(db);
  // The statistics' scan totals, patched, are a build's; the statistics are what the SQL counts.
  const [totals, builtTotals] = [await scanTotals(db), await scanTotals(fresh)];
  expect({
    ...totals,
    ids: [...totals.ids],
    scanCounts: [...totals.scanCounts],
    overall: [...totals.overall],
  }).toEqual({
    ...builtTotals,
    ids: [...builtTotals.ids],
    scanCounts: [...builtTotals.scanCounts],
    overall: [...builtTotals.overall],
  });
  const counted = await sql<{ scans: number; latest: number; avg: number | null; last: string | null }>`
    select (select count(*) from scans where status = 'completed') as scans, count(*) as latest,
      avg(overall_score) as avg, max(completed_at) as last from latest_scans`.execute(db);
  const want = counted.rows[0];
  expect(await stats(db)).toMatchObject({
    total_scans: Number(want?.scans),
    scanned_universities: Number(want?.latest),
    average_score: want?.avg == null ? null : round1(Number(want.avg)),
    last_scan_at: want?.last ?? null,
  });
  const rows = await rankedRowsOf(db);
  const ids = (
    await db.selectFrom("latest_scans").select("university_id").orderBy("university_id").execute()
  ).map((r) => Number(r.university_id));
  expect([...rows.ids]).toEqual(ids);
  const details = await rankedDetailsOf(db, ids);
  const members = (part: unknown) => JSON.stringify(part).slice(1, -1);
  // The university of each ranked row is the list's row of it, found through the slots made for the pair.
  const universities = await universityTextsOf(db);
  const listSlots = listSlotsOf(rows, universities);
  ids.forEach((id, slot) => {
    const d = details.get(id);
    expect([
      universityAt(universities, listSlots[slot] as number),
      compositesAt(rows, slot),
      scanMembersAt(rows, slot),
      rows.scanCount[slot],
    ]).toEqual([members(d?.university), members(d?.composites), members(d?.scan), d?.record.scan_count]);
  });
  // The latest scores of the spliced `/universities/{id}/scores`: every university, each as the core reads it.
  const table = await latestScoreTextsOf(db);
  const all = (await db.selectFrom("universities").select("id").orderBy("id").execute()).map((r) =>
    Number(r.id),
  );
  expect([...table.ids]).toEqual(all);
  const scores = await latestScoresOf(db, all);
  all.forEach((id, slot) => {
    const { scan, scores: want } = scores.get(id) ?? {};
    expect(latestScoresJson(table, slot)).toBe(
      scan && want ? JSON.stringify({ scan_id: scan.id, completed_at: scan.completed_at, ...want }) : null,
    );
  });
}

describeEachDatabase("latest scan changes: rankings patched after writes of scans", (get) => {
  beforeAll(async () => {
    setGenerationWindow(0);
    const records: IngestRecord[] = [];
    for (let i = 0; i < COUNT; i++) {
      records.push({
        type: "university",
        domain: domain(i),
        name: i % 4 === 0 ? `Universität ${i} „Ω“` : `Patch University ${i}`,
        country: COUNTRIES[i % 3] as string,
      });
      // A third have no scan yet: their first one adds them to the rankings.
      if (i % 3 !== 0) records.push(scan(i, 0, 0));
    }
    await writeRecords(get().db, records);
  });
  afterAll(() => setGenerationWindow(1));

  test("the writer logs the universities a write of scans touched, and nothing for a write of universities", async () => {
    const { db } = get();
    const logged = async (generation: number) =>
      (
        await db
          .selectFrom("latest_scan_changes")
          .select("university_id")
          .where("generation", "=", generation)
          .orderBy("university_id")
          .execute()
      ).map((r) => Number(r.university_id));
    const ids = new Map(
      (await db.selectFrom("universities").select(["id", "domain"]).execute()).map((r) => [
        r.domain,
        Number(r.id),
      ]),
    );
    await writeRecords(db, [scan(1, 1, 1), scan(2, 1, 1)]);
    const g1 = await readGeneration(db);
    expect(await logged(g1)).toEqual(
      [ids.get(domain(1)), ids.get(domain(2))].sort((a, b) => a! - b!) as number[],
    );

    // A scan still running changes no latest scan: the generation is logged, with no university.
    await writeRecords(db, [unfinished(4, 9, "running")]);
    const g2 = await readGeneration(db);
    expect(await logged(g2)).toEqual([0]);
    expect(await latestChangesBetween(db, g1 - 1, g2)).toEqual(
      new Set([ids.get(domain(1)), ids.get(domain(2))] as number[]),
    );

    // A write of a university, and raw SQL through the data triggers: not logged, so a reader builds afresh.
    await writeRecords(db, [
      { type: "university", domain: domain(5), name: "Patch University Five", country: "FR" },
    ]);
    const g3 = await readGeneration(db);
    expect(await logged(g3)).toEqual([]);
    expect(await latestChangesBetween(db, g2, g3)).toBeNull();
    await sql`update scans set overall_score = 1 where source_id = 'patch-1-1'`.execute(db);
    const g4 = await readGeneration(db);
    expect(await latestChangesBetween(db, g3, g4)).toBeNull();
    expect(await latestChangesBetween(db, g4, g4)).toEqual(new Set());

    // Rows older than the log keeps go with the next logged write.
    await db
      .insertInto("latest_scan_changes")
      .values({ generation: g4 - LOGGED_GENERATIONS - 5, university_id: 7 })
      .execute();
    await writeRecords(db, [scan(7, 1, 1)]);
    const old = await db
      .selectFrom("latest_scan_changes")
      .select("generation")
      .where("generation", "<=", g4 - LOGGED_GENERATIONS)
      .execute();
    expect(old).toEqual([]);
    expect(await latestChangesBetween(db, 0, await readGeneration(db))).toBeNull();
  });

  test("after writes of scans alone, every ranking, the declines and the ranked rows are what a build gives", async () => {
    const { db } = get();
    await expectAsBuilt(db);
    const rowsBefore = await rankedRowsOf(db);
    const scoresBefore = await latestScoreTextsOf(db);
    for (let round = 1; round <= 12; round++) {
      // A few universities at a time: new first scans, scores up, down and tied, some leaving a ranking (null).
      const batch = [0, 1, 2, 3].map((k) => scan((round * 11 + k * 17) % COUNT, round + 10, round));
      await writeRecords(db, batch);
      await expectAsBuilt(db);
    }
    // Patched, not built: a build keeps every text in chunks of 256, a patch adds chunks of its own.
    const rowsAfter = await rankedRowsOf(db);
    expect(rowsAfter.inexactComposites.chunks.length).toBeGreaterThan(
      rowsBefore.inexactComposites.chunks.length + 6,
    );
    const scoresAfter = await latestScoreTextsOf(db);
    expect(scoresAfter.completedAt.chunks.length).toBeGreaterThan(scoresBefore.completedAt.chunks.length + 6);
    // A score that is not a tenth (unirank's writers round; an operator's UPDATE need not), logged as a write of
    // scans is: the ranking, patched, keeps the numbers from then on, and goes on doing so after a tenth again.
    const [{ university_id: one }] = (await db
      .selectFrom("latest_scans")
      .select("university_id")
      .orderBy("university_id")
      .limit(1)
      .execute()) as [{ university_id: number }];
    const setOverall = async (value: number) => {
      await sql`update scans set overall_score = ${value}
        where id = (select scan_id from latest_scans where university_id = ${one})`.execute(db);
      await db
        .insertInto("latest_scan_changes")
        .values({ generation: await readGeneration(db), university_id: one })
        .execute();
    };
    expect((await rankingOf(db, "overall_score", undefined)).scale).toBe(10);
    await setOverall(41.25);
    await expectRankingsAsSql(db);
    expect((await rankingOf(db, "overall_score", undefined)).scale).toBe(1);
    await setOverall(41.2);
    await expectAsBuilt(db);
    expect((await rankingOf(db, "overall_score", undefined)).scale).toBe(1);
  });

  test("a regression row kept for a university goes when a write changes its latest scan", async () => {
    const { db } = get();
    const clock = () => new Date("2026-11-20T00:00:00Z");
    const params = { days: 3650, min_drop: 0, limit: 100 };
    const drop = (n: number, completed: string, overall: number): IngestRecord => ({
      type: "scan",
      source_id: `patch-drop-${n}`,
      domain: domain(10),
      status: "completed",
      completed_at: completed,
      overall_score: overall,
      profile: "site",
    });
    await writeRecords(db, [
      drop(1, "2026-10-01T08:00:00+00:00", 80),
      drop(2, "2026-10-05T08:00:00+00:00", 40),
    ]);
    const rowOf = async (on: DB) =>
      (await regressions(on, params, { clock })).data.find((r) => r.university.domain === domain(10));
    const kept = await rowOf(db);
    expect(kept).toMatchObject({ previous: { score: 80 }, current: { score: 40 }, drop: 40 });
    // Shared by every answer that shows the row: frozen.
    expect([kept?.university, kept?.previous, kept?.current].every((part) => Object.isFrozen(part))).toBe(
      true,
    );
    await writeRecords(db, [drop(3, "2026-10-09T08:00:00+00:00", 25.5)]);
    expect(await rowOf(db)).toMatchObject({ previous: { score: 40 }, current: { score: 25.5 }, drop: 14.5 });
    expect(await regressions(db, params, { clock })).toEqual(
      await regressions(freshHandle(db), params, { clock }),
    );
  });

  test("a write that changed no latest scan keeps the very same ranking", async () => {
    const { db } = get();
    const before = await rankingOf(db, "overall_score", undefined);
    await writeRecords(db, [unfinished(8, 30, "pending")]);
    expect(await rankingOf(db, "overall_score", undefined)).toBe(before);
  });

  test("after a write of universities, a build", async () => {
    const { db } = get();
    await writeRecords(db, [{ type: "university", domain: domain(9), name: "Renamed Nine", country: "JP" }]);
    await expectAsBuilt(db);
    const rows = await rankedRowsOf(db);
    // A build: no chunk holds a single text.
    const id = Number(
      (
        await db
          .selectFrom("universities")
          .select("id")
          .where("domain", "=", domain(9))
          .executeTakeFirstOrThrow()
      ).id,
    );
    const details = await rankedDetailsOf(db, [id]);
    if (details.size > 0) expect(JSON.stringify(details.get(id)?.university)).toContain("Renamed Nine");
    expect(rows.inexactComposites.chunks.length).toBeLessThanOrEqual(Math.ceil(rows.ids.length / 256) + 1);
  });
});

describeEachDatabase("latest scan changes: a generation that went back", (get) => {
  beforeAll(() => setGenerationWindow(0));
  afterAll(() => setGenerationWindow(1));

  test("values of before a restore are not patched with the log of the restored history", async () => {
    const { db } = get();
    await writeRecords(db, [
      { type: "university", domain: domain(1), name: "Restored One", country: "DE" },
      { type: "university", domain: domain(2), name: "Restored Two", country: "DE" },
      scan(1, 0, 0),
      scan(2, 0, 0),
    ]);
    const ids = new Map(
      (await db.selectFrom("universities").select(["id", "domain"]).execute()).map((r) => [
        r.domain,
        Number(r.id),
      ]),
    );
    const one = ids.get(domain(1)) as number;
    const kept = await rankingOf(db, "overall_score", undefined);
    const g = await readGeneration(db);
    // Another history: university one's score changed, then the generation set back as a restore would leave it
    // (with the log of that history).
    await sql`update scans set overall_score = 99 where source_id = 'patch-1-0'`.execute(db);
    await sql`update unirank_meta set value = ${String(g - 3)} where key = 'generation'`.execute(db);
    await sql`delete from latest_scan_changes where generation > ${g - 3}`.execute(db);
    // A read at the restored generation, of another ranking than the one kept.
    await rankingOf(db, "tech_composite_score", undefined);
    // Logged writes of the other university up to past the kept value's generation.
    for (let n = 1; n <= 4; n++) await writeRecords(db, [scan(2, n, n)]);
    expect(await readGeneration(db)).toBeGreaterThan(g);
    const now = await rankingOf(db, "overall_score", undefined);
    expect(now).not.toBe(kept);
    expect(scoreAt(now, [...now.ids].indexOf(one))).toBe(99);
  });
});
