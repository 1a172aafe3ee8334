import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type Dialect, Kysely, PostgresDialect } from "kysely";
import { PostgresJSDialect } from "kysely-postgres-js";
import pg from "pg";
import postgres from "postgres";
import {
  CATEGORY_NAMES,
  classifyStorageErrors,
  compare,
  countryCounts,
  type Database,
  exportUniversity,
  getScan,
  getUniversity,
  type IngestRecord,
  isUnirankError,
  leaderboard,
  listUniversities,
  migrate,
  postgresUnavailable,
  RANKING_SORTS,
  type RankingsParams,
  rankings,
  regressions,
  scanDiff,
  stats,
  universityRanking,
  universityScores,
  writeRecords,
} from "../../lib/index.ts";
import { DATABASES, type TestDatabase } from "../support/databases.ts";
import { testPostgres } from "../support/postgres-server.ts";

/**
 * Every query function, with a spread of parameters, gives the same JSON on every database for the same data:
 * the bundled demo dataset plus a "zoo" of awkward values (byte-order ties, accents, full-width letters, LIKE
 * metacharacters, scores whose drops fall on half tenths, equal scores).
 */
const demo = readFileSync(join(import.meta.dir, "../..", "data", "demo.ndjson"), "utf8")
  .split("\n")
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l) as IngestRecord);

const ZOO_NAMES = [
  "alpha",
  "Alpha",
  "ALPHA",
  "Ålpha",
  "alpha beta",
  "alpha-beta",
  "alpha_beta",
  "alpha%beta",
  "alpha\\beta",
  "alpha2",
  "alpha10",
  "Zeta",
  "éclair",
  "Eclair",
  "ＵＮＩＶＥＲＳＩＴＥ de montreal",
  "Université de Montréal",
  "Ünïversität Straße",
  "Universite de Montreal",
  "日本大学",
  "a",
];

function zoo(): IngestRecord[] {
  const out: IngestRecord[] = [];
  // Drops (previous - current) that land on half tenths or near them, exactly representable or not.
  const pairs: [number, number][] = [
    [72.25, 70],
    [72.35, 70],
    [72.45, 70],
    [70.05, 70],
    [70.15, 70],
    [80.75, 78.5],
    [50.25, 45],
    [99.95, 0.05],
    [60, 60],
    [61.25, 61.2],
    [33.3, 28.25],
    [45.55, 40.5],
    [72.25, 70],
    [72.35, 70],
    [91.85, 90],
    [10.05, 5],
    [88.8, 88.75],
    [40, 40.25],
    [55.5, 50.5],
    [75.65, 70.6],
  ];
  ZOO_NAMES.forEach((name, i) => {
    const domain = `zoo-${String(i).padStart(2, "0")}.example`;
    out.push({
      type: "university",
      domain,
      name,
      country: ["FR", "de", "US", "JP"][i % 4] as string,
      created_at: `2025-0${(i % 9) + 1}-1${i % 10} 12:00:00`,
    });
    const [prev, cur] = pairs[i % pairs.length] as [number, number];
    const scores = (v: number) => ({
      overall_score: v,
      webo_composite_score: v,
      tech_composite_score: i % 3 === 0 ? null : v,
      research_composite_score: 50,
      presence_composite_score: 50,
      tech_ssl_score: v,
      tech_speed_desktop_score: i % 2 ? v : null,
    });
    out.push({
      type: "scan",
      source_id: `zoo-${i}-a`,
      domain,
      status: "completed",
      started_at: "2026-11-01T10:00:00+00:00",
      completed_at: "2026-11-01T10:00:00+00:00",
      ...scores(prev),
    });
    out.push({
      type: "scan",
      source_id: `zoo-${i}-b`,
      domain,
      status: "completed",
      started_at: "2026-11-01T10:00:00+00:00",
      // Same instant for some: "latest" is then decided by scan id.
      completed_at: i % 5 === 0 ? "2026-11-01T10:00:00+00:00" : "2026-11-18T10:00:00+00:00",
      ...scores(cur),
    });
    if (i % 4 === 0) {
      out.push({ type: "scan", source_id: `zoo-${i}-c`, domain, status: "pending", started_at: null });
    }
  });
  return out;
}

const NOW = new Date("2026-11-20T12:00:00Z");
const clock = () => NOW;

type Call = [label: string, run: (db: TestDatabase["db"]) => Promise<unknown>];

function calls(): Call[] {
  const out: Call[] = [];
  const add = (label: string, run: Call[1]) => out.push([label, run]);
  add("stats", (db) => stats(db));
  for (const sort of ["name", "domain", "country", "created_at"] as const) {
    for (const order of ["asc", "desc"] as const) {
      for (const [page, limit] of [
        [1, 100],
        [2, 100],
        [6, 100],
        [3, 7],
        [999, 20],
      ] as const) {
        add(`list ${sort} ${order} ${page}/${limit}`, (db) =>
          listUniversities(db, { sort, order, page, limit }),
        );
      }
    }
  }
  for (const search of [
    "universite",
    "UNIVERSITÉ DE MONTRÉAL",
    "ＵＮＩＶ",
    "straße",
    "alpha",
    "%",
    "_",
    "\\",
    "alpha%",
    "alpha_b",
    "example",
    ".",
    "日本",
    "zzzz-not-there",
    "é",
  ]) {
    add(`search ${search}`, (db) => listUniversities(db, { search, limit: 100 }));
    add(`search ${search} FR by domain desc`, (db) =>
      listUniversities(db, { search, country: "fr", sort: "domain", order: "desc", limit: 100 }),
    );
  }
  for (const country of ["FR", "de", "US", "JP", "ZZ"]) {
    add(`list country ${country}`, (db) => listUniversities(db, { country, limit: 100, sort: "created_at" }));
  }
  const ids = [1, 2, 3, 17, 250, 499, 500, 501, 505, 519, 520, 521, 2147483647];
  for (const id of ids) {
    add(`university ${id}`, (db) => getUniversity(db, id));
    add(`scores ${id}`, (db) => universityScores(db, id));
    add(`export ${id}`, (db) => exportUniversity(db, id, { clock }));
    add(`ranking ${id}`, async (db) => universityRanking(db, await getUniversity(db, id)));
  }
  add("country counts", (db) => countryCounts(db));
  for (const sort of Object.keys(RANKING_SORTS) as NonNullable<RankingsParams["sort"]>[]) {
    for (const params of [
      { limit: 100 },
      { limit: 100, page: 2 },
      { limit: 100, page: 6 },
      { limit: 13, page: 4 },
      { country: "fr", limit: 100 },
      { country: "US", min_score: 40, max_score: 60, limit: 100 },
      { min_score: 70, limit: 100 },
      { max_score: 45.5, limit: 100 },
      { min_score: 60, max_score: 60, limit: 100 },
      { min_score: 61.2, max_score: 70.05 },
      { min_score: 80, max_score: 20 },
      { page: 100000, limit: 100 },
      { min_score: 1e-320, limit: 5 },
      { min_score: 0, max_score: 5e-324, limit: 5 },
      { min_score: 99.99999999999999, limit: 5 },
    ] satisfies RankingsParams[]) {
      add(`rankings ${sort} ${JSON.stringify(params)}`, (db) => rankings(db, { ...params, sort }));
    }
  }
  for (const list of ["1,2", "500,1,250", "501,502,503,504,505,506,507,508,509,510", "1,9999,8888", "3,3"]) {
    add(`compare ${list}`, (db) => compare(db, { ids: list }));
  }
  for (const id of [1, 2, 100, 1000, 2322, 2323, 2330, 2370, 99999]) {
    add(`scan ${id}`, (db) => getScan(db, id));
  }
  for (const [a, b] of [
    [1, 2],
    [2, 1],
    [5, 5],
    [2323, 2324],
    [2330, 10],
    [1, 99999],
    [2322, 2340],
  ] as const) {
    add(`diff ${a} ${b}`, (db) => scanDiff(db, { a, b }));
  }
  for (const category of CATEGORY_NAMES) {
    for (const limit of [1, 10, 100]) {
      add(`leaderboard ${category} ${limit}`, (db) => leaderboard(db, category, { limit }));
    }
  }
  for (const category of ["overall", "technical", "webometrics", "ssl", "performance", "research"] as const) {
    for (const days of [1, 3, 30, 365]) {
      for (const min_drop of [0, 1e-320, 0.05, 0.1, 2.25, 2.3, 5, 50]) {
        add(`regressions ${category} ${days}d ${min_drop}`, (db) =>
          regressions(db, { category, days, min_drop, limit: 100 }, { clock }),
        );
      }
    }
  }
  add("regressions limit 3", (db) => regressions(db, { min_drop: 0, limit: 3, days: 365 }, { clock }));
  return out;
}

async function answers(db: TestDatabase["db"]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const [label, run] of calls()) {
    try {
      out.set(label, JSON.stringify(await run(db)));
    } catch (e) {
      if (!isUnirankError(e)) throw new Error(`${label}: ${(e as Error).message}`);
      out.set(label, JSON.stringify({ error: e.code, message: e.message, details: e.details }));
    }
  }
  return out;
}

const available = DATABASES.filter((f) => !f.unavailable);

describe("every query gives the same JSON on every database", () => {
  const results = new Map<string, Map<string, string>>();
  const opened: TestDatabase[] = [];

  beforeAll(async () => {
    for (const factory of available) {
      const t = await factory.create();
      if (!t) continue;
      opened.push(t);
      await writeRecords(t.db, demo, { now: NOW });
      await writeRecords(t.db, zoo(), { now: NOW });
      results.set(t.kind, await answers(t.db));
    }
    // Embedders' own drivers on the same server: porsager's `postgres` through kysely-postgres-js, and `pg`
    // through Kysely's PostgresDialect, untouched (unirank's own PostgreSQL is Bun's client).
    const pgServer = await testPostgres();
    if (pgServer.ok && available.some((f) => f.kind === "postgres")) {
      const drivers: [string, (url: string) => Dialect][] = [
        ["postgres-js", (url) => new PostgresJSDialect({ postgres: postgres(url, { max: 5 }) })],
        [
          "pg",
          (url) =>
            classifyStorageErrors(
              new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 5 }) }),
              postgresUnavailable,
            ),
        ],
      ];
      for (const [kind, dialect] of drivers) {
        const url = await pgServer.server.createDatabase(`unirank_${kind.replace("-", "")}`);
        const db = new Kysely<Database>({ dialect: dialect(url) });
        try {
          await migrate(db);
          await writeRecords(db, demo, { now: NOW });
          await writeRecords(db, zoo(), { now: NOW });
          results.set(kind, await answers(db));
        } finally {
          await db.destroy();
        }
      }
    }
  }, 300_000);

  afterAll(async () => {
    await Promise.all(opened.map((t) => t.close()));
  });

  test("the calls cover answers and errors", () => {
    const sqlite = results.get("sqlite");
    expect(sqlite).toBeDefined();
    const values = [...(sqlite?.values() ?? [])];
    expect(values.length).toBeGreaterThan(350);
    expect(values.filter((v) => v.startsWith('{"error"')).length).toBeGreaterThan(10);
    // The zoo makes half-tenth drops that the regressions must report.
    expect(values.some((v) => v.includes('"drop":2.3'))).toBe(true);
  });

  const others = available.filter((f) => f.kind !== "sqlite").map((f) => f.kind as string);
  if (others.includes("postgres")) others.push("postgres-js", "pg");
  for (const kind of others) {
    test(`${kind} answers exactly as sqlite`, () => {
      const sqlite = results.get("sqlite");
      const other = results.get(kind);
      expect(other).toBeDefined();
      const differing: { call: string; sqlite: string | undefined; [kind: string]: string | undefined }[] =
        [];
      for (const [label, value] of sqlite ?? []) {
        const v = other?.get(label);
        if (v !== value) differing.push({ call: label, sqlite: value, [kind]: v });
      }
      expect(differing.slice(0, 5)).toEqual([]);
      expect(differing.length).toBe(0);
    });
  }
});

for (const f of DATABASES.filter((d) => d.unavailable)) {
  test.skip(`cross-database comparison without ${f.kind}: ${f.unavailable}`, () => {});
}
