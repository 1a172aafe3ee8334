import { beforeAll, expect, test } from "bun:test";
import { sql } from "kysely";
import {
  CATEGORY_NAMES,
  compare,
  exportUniversity,
  getScan,
  getUniversity,
  type IngestRecord,
  LeaderboardSchema,
  type ListUniversitiesParams,
  leaderboard,
  listUniversities,
  RANKING_SORTS,
  RankingListSchema,
  type RankingsParams,
  RegressionListSchema,
  rankings,
  regressions,
  scanDiff,
  scanHistory,
  UniversityListSchema,
  type UniversityRefs,
  universityRanking,
  universityScores,
  writeRecords,
} from "../../lib/index.ts";
import { universityPage } from "../../lib/queries/list-universities.ts";
import { csvTable } from "../../src/http/csv/csv-table.ts";
import { scratchUtf8 } from "../../src/http/scratch-utf8.ts";
import { historyTableOf } from "../../src/http/spliced-json/history-table.ts";
import { JsonText, JsonWriter, jsonOf } from "../../src/http/spliced-json/json-text.ts";
import { splicedCompare } from "../../src/http/spliced-json/spliced-compare.ts";
import { splicedExport } from "../../src/http/spliced-json/spliced-export.ts";
import { splicedScanHistory } from "../../src/http/spliced-json/spliced-history.ts";
import { splicedLeaderboard, splicedRankings } from "../../src/http/spliced-json/spliced-rankings.ts";
import { splicedRegressions } from "../../src/http/spliced-json/spliced-regressions.ts";
import { splicedScan } from "../../src/http/spliced-json/spliced-scan.ts";
import { splicedScanDiff } from "../../src/http/spliced-json/spliced-scan-diff.ts";
import { splicedUniversities, universityRowsJson } from "../../src/http/spliced-json/spliced-universities.ts";
import {
  splicedUniversity,
  splicedUniversityScores,
  splicedUniversityWithRanking,
} from "../../src/http/spliced-json/spliced-university.ts";
import { keptUniversityRefs, universityTextsOf } from "../../src/http/spliced-json/university-texts.ts";
import { describeEachDatabase } from "../support/databases.ts";

/**
 * The HTTP layer's spliced rankings, leaderboards, universities, scores, comparisons and regressions must be, byte for byte, `JSON.stringify`
 * of the core's typed answer: same rows, key order, number formatting and escapes, on every database, also after
 * a write; and their CSV the CSV of that answer.
 */
const COUNT = 700;
const NAMES = [
  (i: number) => `Universität Nummer ${i}`,
  (i: number) => `北山大学 ${i}`,
  (i: number) => `Institute "Quoted" \\ ${i} 🎓`,
  (i: number) => `Tab\tand\nnew line\u0001 ${i}`,
  (i: number) => `Plain College ${i}`,
];
const COUNTRIES = ["DE", "JP", "FR", "BR"];

function records(): IngestRecord[] {
  const out: IngestRecord[] = [];
  for (let i = 0; i < COUNT; i++) {
    const domain = `s${i}.splice.example`;
    out.push({ type: "university", domain, name: NAMES[i % NAMES.length]!(i), country: COUNTRIES[i % 4]! });
    // Few distinct scores: many ties.
    const score = (i * 7) % 40;
    out.push({
      type: "scan",
      source_id: `splice-${i}`,
      domain,
      status: "completed",
      completed_at: `2026-0${1 + (i % 9)}-1${i % 10}T08:00:00+00:00`,
      overall_score: 50 + score / 2,
      webo_composite_score: i % 6 === 0 ? null : score,
      tech_composite_score: i % 5 === 0 ? 0 : 99.9,
      research_composite_score: i % 3 === 0 ? null : (i % 100) + 0.5,
      presence_composite_score: 100,
      tech_ssl_score: i % 11 === 0 ? null : (i % 20) * 5,
      tech_seo_score: i % 2 ? 70 : 70.5,
      tech_hsts_score: i % 7,
      // Three profiles: v2 ranks a university among its profile's.
      profile: ["site,availability", "site,availability,browser", "unknown"][i % 3]!,
      green_hosting_score: i % 4 === 0 ? null : 100,
    });
    // An earlier scan for most: the latest stays as above, and the regressions compare the two.
    if (i % 5 === 4) continue;
    out.push({
      type: "scan",
      source_id: `splice-earlier-${i}`,
      domain,
      status: "completed",
      completed_at: `2025-1${i % 3}-0${1 + (i % 9)}T0${i % 10}:30:00+00:00`,
      overall_score: 50 + ((i * 13) % 50) / 2,
      webo_composite_score: i % 7 === 0 ? null : (i * 3) % 100,
      tech_composite_score: 100,
      research_composite_score: (i % 97) + 0.7,
      presence_composite_score: i % 2 ? 100 : 95.5,
      tech_ssl_score: (i % 10) * 10,
      tech_seo_score: 80,
      tech_hsts_score: 5,
      profile: ["site,availability", "site,availability,browser", "unknown"][
        (i + (i % 8 === 0 ? 1 : 0)) % 3
      ]!,
      green_hosting_score: 100,
    });
  }
  // Universities without a latest completed scan: none, one that failed, one still running.
  for (let i = 0; i < 6; i++) {
    const domain = `unscanned${i}.splice.example`;
    out.push({ type: "university", domain, name: NAMES[i % NAMES.length]!(COUNT + i), country: "DE" });
    if (i % 3 === 0) continue;
    out.push({
      type: "scan",
      source_id: `splice-unscanned-${i}`,
      domain,
      status: i % 3 === 1 ? "failed" : "running",
      ...(i % 3 === 1 ? { completed_at: "2026-05-01T08:00:00+00:00" } : {}),
    });
  }
  return out;
}

const SORTS = Object.keys(RANKING_SORTS) as NonNullable<RankingsParams["sort"]>[];

function rankingParams(): RankingsParams[] {
  const out: RankingsParams[] = [
    // Rows kept out of their order: 11–15 before 1–10, then 1–20 (rows made at different times, in pieces).
    { limit: 5, page: 3 },
    { limit: 10 },
    { limit: 20 },
    {},
    { page: 2 },
    { limit: 100, page: 7 },
    { limit: 100, page: 8 },
    { page: 1000 },
  ];
  for (const sort of SORTS) out.push({ sort, limit: 37, page: 3 });
  for (const country of ["de", "JP", "fr", "XX"]) out.push({ country, limit: 100 });
  out.push({ min_score: 55, max_score: 60, limit: 100 });
  out.push({ min_score: 60, limit: 10, page: 2 }, { max_score: 51, sort: "overall" });
  out.push({ min_score: 200 }, { country: "br", sort: SORTS.at(-1), min_score: 10, max_score: 60 });
  return out;
}

function listParams(): ListUniversitiesParams[] {
  const out: ListUniversitiesParams[] = [{}, { page: 3, limit: 100 }, { page: 8, limit: 100 }, { page: 99 }];
  for (const sort of ["name", "domain", "country", "created_at"] as const) {
    for (const order of ["asc", "desc"] as const) out.push({ sort, order, limit: 50, page: 2 });
  }
  out.push(
    { country: "jp", limit: 100 },
    { country: "XX" },
    { country: "DE", sort: "domain", order: "desc" },
  );
  for (const search of ["nummer", "北山", '"quoted"', "S1", "zero", "univ", "ä", "x", "nothing at all"]) {
    out.push({ search, limit: 100 }, { search, sort: "domain", order: "desc", limit: 30 });
  }
  out.push({ search: "plain", country: "fr", page: 2, limit: 10 });
  return out;
}

const REGRESSIONS_PARAMS = [
  {},
  { days: 3650, min_drop: 0, limit: 100 },
  { days: 400, min_drop: 12.5, limit: 7 },
];
const REGRESSIONS_CLOCK = () => new Date("2026-11-20T12:00:00Z");

describeEachDatabase("http: spliced rankings, leaderboards, universities, scores and comparisons", (get) => {
  beforeAll(async () => {
    const db = get().db;
    await writeRecords(db, records());
    // Not a tenth (unirank's writers round to tenths; an operator's UPDATE need not): the spliced scores read
    // such a university as the core does.
    await sql`update scans set tech_hsts_score = 33.33
      where id in (select scan_id from latest_scans where university_id % 13 = 0)`.execute(db);
    // A composite that is not a tenth: its ranking rows keep its text instead of codes of tenths.
    await sql`update latest_scans set research_composite_score = 41.25
      where university_id % 7 = 0`.execute(db);
    // A `completed_at` whose date JSON writes with an escape, or cuts within a surrogate pair: the spliced dates
    // are the core's.
    await sql`update latest_scans set completed_at = ${'2026-0"-1\\T08:00:00+00:00'}
      where university_id % 17 = 5`.execute(db);
    await sql`update latest_scans set completed_at = ${"2026-01-0\u{1F600}T08:00:00+00:00"}
      where university_id % 17 = 6`.execute(db);
    // A completion time in another form than unirank writes (a history keeps its times as seconds of that form).
    // Only earlier scans, so that the latest stay the latest.
    await sql`update scans set completed_at = ${"2025-01-05T08:00:00Z"}
      where university_id % 23 = 0 and status = 'completed' and completed_at < ${"2026"}`.execute(db);
    // Scans with a start, a rubric version and evidence stored as text JSON writes otherwise (spaces, `1.50`, an
    // escaped letter): a scan's answer gives its evidence as the core parses and writes it.
    await sql`update scans set started_at = ${"2026-01-01T07:59:00+00:00"}, rubric_version = id % 3 + 1
      where id % 4 = 0`.execute(db);
    await sql`insert into scan_evidence (scan_id, evidence)
      select id, ${String.raw`{ "tls": {"points": 1.50, "detail": "\u00e9t\u00e9 \"ok\""}, "list": [1, 2e1, null] }`}
      from scans where id % 6 = 1`.execute(db);
    // Per-check evidence (`unirank scan`) on a third of the scans: a diff of two of them lists the checks changed.
    await sql`insert into scan_evidence (scan_id, evidence)
      select id, ${'{"checks":[{"id":"hsts","score":"tech_hsts_score","label":"HSTS","points":'} || (id % 3) ||
        ${',"max":3,"detail":"\u00e9","remediation":null},{"id":"tls","score":"tech_ssl_score","label":"TLS","points":2,"max":'} ||
        (2 + id % 2) || ${',"detail":"d","remediation":"Renew"}]}'}
      from scans where id % 3 = 0`.execute(db);
  });

  // A value that writes itself is read as the bytes it writes, which must be its text's too.
  const written = (value: unknown) => {
    if (!(value instanceof JsonWriter)) return jsonOf(value);
    const json = new TextDecoder().decode(scratchUtf8([value]));
    expect(json).toBe(value.text);
    return json;
  };

  const same = async () => {
    const db = get().db;
    for (const params of rankingParams()) {
      const core = await rankings(db, params);
      const spliced = await splicedRankings(db, params);
      expect(written(spliced.data)).toBe(JSON.stringify(core.data));
      expect(spliced.meta).toEqual(core.meta);
      // CSV from the spliced rows (records kept per row text) is the CSV of the core's rows, asked twice.
      for (let i = 0; i < 2; i++) {
        expect(csvTable(RankingListSchema, spliced.data)).toBe(csvTable(RankingListSchema, core.data));
      }
    }
    for (const category of CATEGORY_NAMES) {
      for (const limit of [1, 10, 100]) {
        const core = await leaderboard(db, category, { limit });
        const spliced = await splicedLeaderboard(db, category, { limit });
        expect(written(spliced.data)).toBe(JSON.stringify(core.data));
        expect(spliced.meta).toEqual(core.meta);
        expect(csvTable(LeaderboardSchema, spliced.data)).toBe(csvTable(LeaderboardSchema, core.data));
      }
    }
    // v1 /universities/{id}: the core's university without its latest scan, for every id (the unscanned with
    // their scan count of 0 too, from memory) and one past them.
    const ids = (await db.selectFrom("universities").select("id").orderBy("id").execute()).map((r) => r.id);
    let unscanned = 0;
    for (const id of ids) {
      const { latest_scan, ...university } = await getUniversity(db, id);
      const spliced = await splicedUniversity(db, id);
      expect(spliced instanceof JsonWriter).toBe(true);
      if (latest_scan === null) unscanned++;
      expect(written(spliced)).toBe(JSON.stringify(university));
    }
    expect(unscanned).toBe(6);
    const missing = (ids.at(-1) ?? 0) + 1;
    await expect(splicedUniversity(db, missing)).rejects.toThrow(`University ${missing} does not exist`);
    const outcome = (answer: Promise<unknown>) =>
      answer.then(
        (value) => ({
          spliced: value instanceof JsonText || value instanceof JsonWriter,
          json: written(value),
        }),
        (e: Error) => ({ spliced: false, json: e.message }),
      );
    // v2 /universities/{id}: the university with its latest scan and its ranking by its profile.
    let ranked = 0;
    let unscannedV2 = 0;
    for (const id of [...ids, missing]) {
      const core = await outcome(
        getUniversity(db, id).then(async (u) => ({ ...u, ranking: await universityRanking(db, u) })),
      );
      const spliced = await outcome(splicedUniversityWithRanking(db, id));
      expect(spliced.json).toBe(core.json);
      if (spliced.json.includes('"rank":')) ranked++;
      // The unscanned from memory as well, with no latest scan and no ranking.
      if (core.json.includes('"latest_scan":null')) {
        expect(spliced.spliced).toBe(true);
        unscannedV2++;
      }
    }
    expect(ranked).toBeGreaterThan(COUNT * 0.9);
    expect(unscannedV2).toBe(6);
    // v1 /universities/{id}/scores: the same bytes, or the same error (unknown, never scanned).
    const kinds = { spliced: 0, read: 0, errors: 0 };
    for (const id of [...ids, missing]) {
      const core = await outcome(universityScores(db, id));
      const spliced = await outcome(splicedUniversityScores(db, id));
      expect(spliced.json).toBe(core.json);
      if (spliced.spliced) kinds.spliced++;
      else if (spliced.json.startsWith("{")) kinds.read++;
      else kinds.errors++;
    }
    // Those with a score that is not a tenth, the unscanned and the missing one are read as before.
    expect(kinds.spliced).toBeGreaterThan(COUNT * 0.9);
    expect(kinds.read).toBeGreaterThanOrEqual(Math.floor(COUNT / 13));
    expect(kinds.errors).toBe(7);
    // /compare: the same bytes or error for groups of 2–10 ids; in some the unscanned (the last six ids, from the
    // table's references) and those with a score that is not a tenth (ids divisible by 13, read by the core).
    const groups: string[] = ["1", "1,1", "a,b", `1,${missing}`, `${missing},${missing + 1},1`];
    groups.push(ids.slice(-6).join(","), `${ids.slice(-3).join(",")},13,14,26`);
    for (let g = 0; g < 60; g++) {
      const size = 2 + (g % 9);
      groups.push(Array.from({ length: size }, (_, k) => ids[(g * 37 + k * 101) % ids.length]).join(","));
    }
    for (const group of groups) {
      const core = await outcome(compare(db, { ids: group }));
      const spliced = await outcome(splicedCompare(db, { ids: group }));
      expect(spliced.json).toBe(core.json);
    }
    // The universities list and its searches: every order, countries, searches short and long, pages past the end.
    let listed = 0;
    for (const params of listParams()) {
      const core = await listUniversities(db, params);
      const spliced = await splicedUniversities(db, params);
      expect(written(spliced.data)).toBe(JSON.stringify(core.data));
      expect(spliced.meta).toEqual(core.meta);
      expect(csvTable(UniversityListSchema, spliced.data)).toBe(csvTable(UniversityListSchema, core.data));
      listed += core.data.length;
    }
    expect(listed).toBeGreaterThan(1000);
    // v2 /regressions: every category, windows and thresholds; asked twice (the second from the texts kept).
    let regressed = 0;
    for (const category of CATEGORY_NAMES) {
      for (const params of REGRESSIONS_PARAMS) {
        const core = await regressions(db, { category, ...params }, { clock: REGRESSIONS_CLOCK });
        for (let i = 0; i < 2; i++) {
          const spliced = await splicedRegressions(db, { category, ...params }, REGRESSIONS_CLOCK);
          expect(spliced.data.text).toBe(JSON.stringify(core.data));
          expect(spliced.meta).toEqual(core.meta);
          expect(csvTable(RegressionListSchema, spliced.data)).toBe(
            csvTable(RegressionListSchema, core.data),
          );
        }
        regressed += core.data.length;
      }
    }
    expect(regressed).toBeGreaterThan(500);
    // v2 /universities/{id}/history by page: every university (the unscanned too) and one past them, pages full,
    // short, empty and past the end; the same bytes and meta, or the same error.
    // Answered by the core until the table is built (or patched): wait for it, so that the pages come from it.
    await historyTableOf(db);
    const historyKinds = { spliced: 0, read: 0, errors: 0 };
    const historyInputs = [
      {},
      { limit: 1 },
      { limit: 1, page: 2 },
      { limit: 3, page: 2 },
      { limit: 100, page: 2 },
    ];
    for (const id of [...ids, missing]) {
      for (const input of historyInputs) {
        const core = await outcome(scanHistory(db, id, input).then((h) => ({ data: h.data, meta: h.meta })));
        const spliced = await outcome(
          splicedScanHistory(db, id, input).then((h) => ({
            data: JSON.parse(written(h.data)),
            meta: h.meta,
          })),
        );
        expect(spliced.json).toBe(core.json);
        const kind = await splicedScanHistory(db, id, input).then(
          (h) => (h.data instanceof JsonWriter ? "spliced" : "read"),
          () => "errors" as const,
        );
        historyKinds[kind]++;
      }
    }
    // Read by the core: a history with a time not in unirank's form (ids divisible by 23) or a score that is not a
    // tenth; an error: the missing university.
    expect(historyKinds.spliced).toBeGreaterThan(ids.length * historyInputs.length * 0.8);
    expect(historyKinds.read).toBeGreaterThanOrEqual(historyInputs.length * Math.floor((COUNT / 23) * 0.8));
    expect(historyKinds.errors).toBe(historyInputs.length);
    // v1 /universities/{id}/export at one time: the core's answers and errors, every university.
    const exportKinds = { spliced: 0, read: 0, errors: 0, checks: 0 };
    const exportClock = () => new Date("2026-11-21T10:11:12Z");
    for (const id of [...ids, missing]) {
      const core = await outcome(exportUniversity(db, id, { clock: exportClock }));
      const spliced = await outcome(splicedExport(db, id, exportClock));
      expect(spliced.json).toBe(core.json);
      if (spliced.spliced) exportKinds.spliced++;
      else if (spliced.json.startsWith("{")) exportKinds.read++;
      else exportKinds.errors++;
      if (spliced.spliced && spliced.json.includes('"message":"TLS: d. Renew"')) exportKinds.checks++;
    }
    // Read by the core: a latest score that is not a tenth (ids divisible by 13), a history with a time not in
    // unirank's form (23); errors: the six unscanned and the missing.
    expect(exportKinds.spliced).toBeGreaterThan(ids.length * 0.8);
    expect(exportKinds.read).toBeGreaterThanOrEqual(Math.floor(COUNT / 13));
    expect(exportKinds.errors).toBe(7);
    expect(exportKinds.checks).toBeGreaterThan(10);
    // v2 /scans/{id} and /scan-diff with the universities from the list's rows: the core's answers and errors.
    const scanIds = (await db.selectFrom("scans").select("id").orderBy("id").execute()).map((r) =>
      Number(r.id),
    );
    const pastLast = (scanIds.at(-1) ?? 0) + 1;
    const refs = keptUniversityRefs(db);
    const scanKinds = { spliced: 0, read: 0, errors: 0 };
    for (const id of [...scanIds, pastLast]) {
      const core = await outcome(getScan(db, id));
      if (id % 5 === 0) expect((await outcome(getScan(db, id, refs))).json).toBe(core.json);
      const spliced = await outcome(splicedScan(db, id));
      expect(spliced.json).toBe(core.json);
      if (spliced.spliced) scanKinds.spliced++;
      else if (spliced.json.startsWith("{")) scanKinds.read++;
      else scanKinds.errors++;
    }
    // Spliced: completed scans (with evidence too) and the failed and running; read: a score not a tenth.
    expect(scanKinds.spliced).toBeGreaterThan(scanIds.length * 0.9);
    expect(scanKinds.read).toBeGreaterThanOrEqual(Math.floor(COUNT / 13));
    expect(scanKinds.errors).toBe(1);
    const pairs = Array.from({ length: 240 }, (_, p) => ({
      a: scanIds[(p * 53) % scanIds.length] as number,
      b: scanIds[(p * 97 + 5) % scanIds.length] as number,
    }));
    // Pairs of scans that both carry checks.
    const checked = scanIds.filter((id) => id % 3 === 0);
    for (let p = 0; p < 20; p++) {
      pairs.push({
        a: checked[(p * 7) % checked.length] as number,
        b: checked[(p * 11 + 3) % checked.length] as number,
      });
    }
    pairs.push(
      { a: scanIds[0] as number, b: scanIds[0] as number },
      { a: pastLast, b: scanIds[1] as number },
    );
    const diffKinds = { spliced: 0, checks: 0, read: 0, errors: 0 };
    for (const pair of pairs) {
      const core = await outcome(scanDiff(db, pair));
      expect((await outcome(scanDiff(db, pair, refs))).json).toBe(core.json);
      const spliced = await outcome(splicedScanDiff(db, pair));
      expect(spliced.json).toBe(core.json);
      if (spliced.spliced) diffKinds.spliced++;
      else if (spliced.json.startsWith("{")) diffKinds.read++;
      else diffKinds.errors++;
      if (spliced.spliced && !spliced.json.endsWith('"checks":null}')) diffKinds.checks++;
    }
    // Spliced: most pairs, some with both scans' checks; read by the core: a score that is not a tenth; errors:
    // the unknown, failed and running scans.
    expect(diffKinds.spliced).toBeGreaterThan(pairs.length * 0.7);
    expect(diffKinds.checks).toBeGreaterThanOrEqual(5);
    expect(diffKinds.read).toBeGreaterThan(0);
    expect(diffKinds.errors).toBeGreaterThan(0);
  };

  test("the same bytes for every sort, country, score window, page and category", async () => {
    const { data } = await rankings(get().db, { limit: 100 });
    expect(data.length).toBe(100);
    expect(data.some((e) => e.name.includes('"'))).toBe(true);
    await same();
  });

  test("the same bytes after a write changed names, scores and rankings", async () => {
    const db = get().db;
    await writeRecords(db, [
      {
        type: "university",
        domain: "s0.splice.example",
        name: 'Renamed "Zero" \u2028 University',
        country: "JP",
      },
      {
        type: "scan",
        source_id: "splice-new-0",
        domain: "s0.splice.example",
        status: "completed",
        completed_at: "2026-11-01T08:00:00+00:00",
        overall_score: 99.5,
        webo_composite_score: null,
        tech_ssl_score: 100,
      },
    ]);
    const top = await rankings(db, { limit: 1 });
    expect(top.data[0]?.name).toBe('Renamed "Zero" \u2028 University');
    await same();
  });

  test("the same bytes after writes of scans alone (the rankings and rows patched, not built)", async () => {
    const db = get().db;
    for (let round = 0; round < 3; round++) {
      await writeRecords(
        db,
        [3, 40, 41, 250, 699].map((i) => ({
          type: "scan" as const,
          source_id: `splice-patch-${round}-${i}`,
          domain: `s${i}.splice.example`,
          status: "completed" as const,
          completed_at: `2026-11-0${2 + round}T08:00:00+00:00`,
          overall_score: round === 1 ? 50 : 60 + i / 100,
          webo_composite_score: round === 2 ? null : 12.5,
          tech_composite_score: 99.9,
          tech_ssl_score: i % 2 ? 100 : null,
        })),
      );
      await same();
    }
  });

  test("a history asked while its table is built or patched is the core's answer, and the table's after", async () => {
    const db = get().db;
    const [university] = await db
      .selectFrom("universities")
      .select(["id", "domain"])
      .orderBy("id")
      .limit(1)
      .execute();
    const id = Number(university?.id);
    await historyTableOf(db);
    await writeRecords(db, [
      {
        type: "scan",
        source_id: "splice-history-while-built",
        domain: String(university?.domain),
        status: "completed",
        completed_at: "2026-11-20T08:00:00+00:00",
        overall_score: 42.5,
      },
    ]);
    const core = JSON.stringify(await scanHistory(db, id));
    const during = await splicedScanHistory(db, id);
    expect(during.data instanceof JsonWriter).toBe(false);
    expect(JSON.stringify(during)).toBe(core);
    await historyTableOf(db);
    const after = await splicedScanHistory(db, id);
    expect(after.data instanceof JsonWriter).toBe(true);
    expect(JSON.stringify({ data: JSON.parse(jsonOf(after.data)), meta: after.meta })).toBe(core);
    expect(core).toContain("2026-11-20T08:00:00+00:00");
  });

  test("a scan's university comes from the references given, and from the database where they lack it", async () => {
    const db = get().db;
    const [first, second] = (await db.selectFrom("scans").select("id").orderBy("id").limit(2).execute()).map(
      (r) => Number(r.id),
    );
    const given: UniversityRefs = async (ids) =>
      new Map(ids.map((id) => [id, { id, domain: "given.example", name: "Given", country: "ZZ" }]));
    expect((await getScan(db, first as number, given)).university.name).toBe("Given");
    const none: UniversityRefs = async () => new Map();
    expect(await getScan(db, second as number, none)).toEqual(await getScan(db, second as number));
  });

  test("list rows the texts do not hold (a write between the page and the texts) are read by the core", async () => {
    const db = get().db;
    const before = await universityTextsOf(db);
    await writeRecords(db, [
      { type: "university", domain: "late.splice.example", name: "Aaa Late University", country: "DE" },
      { type: "university", domain: "s1.splice.example", name: "Aaa Renamed One", country: "DE" },
    ]);
    const params = { search: "aaa" };
    const core = await listUniversities(db, params);
    expect(core.data.map((u) => u.name)).toEqual(["Aaa Late University", "Aaa Renamed One"]);
    const { ids } = await universityPage(db, params);
    const late = await universityRowsJson(db, ids, before);
    // The new university is read; the renamed one is as the older texts have it (as a page read before the write).
    expect(late.rows[0]).toBe(JSON.stringify(core.data[0]));
    expect(late.rows[1]).toContain(JSON.stringify(NAMES[1]!(1)));
    // Both kinds of row written as bytes, as their texts say them.
    expect(new TextDecoder().decode(scratchUtf8([late]))).toBe(late.text);
    expect(late.text).toBe(`[${late.rows.join(",")}]`);
    expect((await splicedUniversities(db, params)).data.text).toBe(JSON.stringify(core.data));
  });
});
