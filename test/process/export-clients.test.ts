import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { openSqlite } from "../../src/db/open.ts";
import { createApp } from "../../src/http/app.ts";
import { tempDir } from "../support/databases.ts";
import { AWKWARD_NAMES, awkwardRecords } from "../support/export-fixture.ts";
import { testContext } from "../support/fixtures-app.ts";
import { runCli } from "../support/serve-process.ts";

/**
 * Real clients read what `unirank export` writes: DuckDB (`@duckdb/node-api`) the CSVs (gzipped too), the NDJSON,
 * the Parquet file and CSV pages of the API; SQLite's own command-line shell the snapshot (DuckDB reads SQLite
 * files only through an extension it downloads, and no network is reachable here). Counts and sampled values are
 * those the API answers for the same database.
 */
type Row = Record<string, unknown>;

const SQLITE3 = Bun.which("sqlite3");

/** A time as DuckDB shows it (`2026-03-01 12:00:00`, UTC, or `…+00`) or as the API writes it, in milliseconds. */
function instant(value: unknown): number | null {
  if (value === null || value === undefined) return null;
  const text = String(value)
    .replace(" ", "T")
    .replace(/([+-]\d\d)$/, "$1:00");
  const ms = Date.parse(/[zZ]|[+-]\d\d:\d\d$/.test(text) ? text : `${text}Z`);
  expect(Number.isNaN(ms)).toBe(false);
  return ms;
}

describe("real clients read every export format", () => {
  let dir: string;
  let dbPath: string;
  let app: ReturnType<typeof createApp>;
  let closeDb: () => Promise<void>;
  let duck: Awaited<ReturnType<DuckDBInstance["connect"]>>;
  const api = async (path: string) =>
    (await (await app.handle(new Request(`http://unirank.test${path}`))).json()).data;
  /** Rows as plain values: DuckDB's 64-bit integers as numbers, its timestamps as their text. */
  const rows = async (sql: string): Promise<Row[]> =>
    (await duck.runAndReadAll(sql))
      .getRowObjects()
      .map((row) =>
        Object.fromEntries(
          Object.entries(row).map(([k, v]) => [
            k,
            typeof v === "bigint" ? Number(v) : v !== null && typeof v === "object" ? String(v) : v,
          ]),
        ),
      );
  const file = (name: string) => join(dir, name).replaceAll("'", "''");

  beforeAll(async () => {
    dir = tempDir("unirank-clients-");
    dbPath = join(dir, "data.db");
    expect((await runCli(["seed", "--universities", "120", "--db", dbPath])).code).toBe(0);
    const awkward = join(dir, "awkward.ndjson");
    writeFileSync(
      awkward,
      `${awkwardRecords()
        .map((r) => JSON.stringify(r))
        .join("\n")}\n`,
    );
    expect((await runCli(["import", awkward, "--db", dbPath, "--no-events"])).code).toBe(0);
    for (const [out, format] of [
      ["universities.csv", "csv"],
      ["scans.csv.gz", "scans-csv"],
      ["checks.csv", "checks-csv"],
      ["scans.parquet", "parquet"],
      ["all.ndjson.gz", "ndjson"],
      ["snapshot.db", "sqlite"],
    ] as const) {
      const r = await runCli(["export", join(dir, out), "--format", format, "--db", dbPath]);
      expect(r.err).toContain("exported");
      expect(r.code).toBe(0);
    }
    const opened = openSqlite(dbPath, { readonly: true });
    closeDb = opened.close;
    app = createApp(testContext(opened.db));
    duck = await (await DuckDBInstance.create(":memory:")).connect();
  }, 180_000);
  afterAll(async () => {
    duck?.closeSync();
    await closeDb?.();
    rmSync(dir, { recursive: true, force: true });
  });

  test("csv: one row per university, its latest scores as the API's", async () => {
    const stats = await api("/api/v1/stats");
    const [count] = await rows(
      `select count(*) as n, count(scan_id) as scanned from read_csv('${file("universities.csv")}')`,
    );
    expect(Number(count?.n)).toBe(stats.total_universities);
    expect(Number(count?.scanned)).toBe(stats.scanned_universities);
    for (const id of [1, 2, 60, 121, 125, 129]) {
      const [row] = await rows(
        `select * from read_csv('${file("universities.csv")}') where university_id = ${id}`,
      );
      const university = await api(`/api/v1/universities/${id}`);
      expect([row?.name, row?.domain, row?.country, row?.scan_count]).toEqual([
        university.name,
        university.domain,
        university.country,
        university.scan_count,
      ]);
      const scores = await app.handle(new Request(`http://unirank.test/api/v1/universities/${id}/scores`));
      if (scores.status === 404) {
        expect(row?.scan_id).toBeNull();
        continue;
      }
      const latest = (await scores.json()).data;
      for (const [k, v] of Object.entries(latest)) {
        expect([k, k === "completed_at" ? instant(row?.[k]) : row?.[k]]).toEqual([
          k,
          k === "completed_at" ? instant(v) : v,
        ]);
      }
    }
    // Every awkward name came through DuckDB's CSV reader unchanged.
    const names = (await rows(`select name from read_csv('${file("universities.csv")}')`)).map((r) => r.name);
    for (const name of AWKWARD_NAMES) expect(names).toContain(name);
  });

  test("scans-csv (gzipped) and parquet: every scan, its status and scores as the API's", async () => {
    const stats = await api("/api/v1/stats");
    for (const source of [
      `read_csv('${file("scans.csv.gz")}')`,
      `read_parquet('${file("scans.parquet")}')`,
    ]) {
      const [count] = await rows(
        `select count(*) as n, count(*) filter (where status = 'completed') as completed from ${source}`,
      );
      expect(Number(count?.completed)).toBe(stats.total_scans);
      const [max] = await rows(`select max(scan_id) as m from ${source}`);
      expect(Number(count?.n)).toBe(Number(max?.m));
      for (const id of [1, 2, 100, Number(max?.m) - 3, Number(max?.m)]) {
        const [row] = await rows(`select * from ${source} where scan_id = ${id}`);
        const scan = await api(`/api/v2/scans/${id}`);
        expect([row?.university_id, row?.name, row?.status]).toEqual([
          scan.university.id,
          scan.university.name,
          scan.status,
        ]);
        for (const k of ["started_at", "completed_at"]) {
          const v = scan[k];
          expect(instant(row?.[k])).toBe(instant(v));
        }
        for (const [k, v] of Object.entries(scan.scores ?? {})) expect([k, row?.[k]]).toEqual([k, v]);
      }
    }
    // Parquet keeps types: integers, doubles, timestamps.
    const types = Object.fromEntries(
      (await rows(`describe select * from read_parquet('${file("scans.parquet")}')`)).map((r) => [
        r.column_name,
        r.column_type,
      ]),
    );
    expect([types.scan_id, types.overall_score, types.completed_at, types.name]).toEqual([
      "INTEGER",
      "DOUBLE",
      "TIMESTAMP",
      "VARCHAR",
    ]);
  });

  test("checks-csv: one row per check of the stored evidence, as the API shows it", async () => {
    const all = await rows(
      `select * from read_csv('${file("checks.csv")}', all_varchar = true) order by scan_id, check_id`,
    );
    const scanIds = [...new Set(all.map((r) => Number(r.scan_id)))];
    expect(scanIds.length).toBe(AWKWARD_NAMES.length);
    let checks = 0;
    for (const id of scanIds) {
      const scan = await api(`/api/v2/scans/${id}`);
      const mine = all.filter((r) => Number(r.scan_id) === id);
      checks += scan.evidence.checks.length;
      expect(mine.length).toBe(scan.evidence.checks.length);
      for (const c of scan.evidence.checks) {
        const row = mine.find((r) => r.check_id === c.id);
        expect([
          row?.score,
          Number(row?.points),
          Number(row?.max),
          row?.detail,
          row?.remediation ?? null,
        ]).toEqual([c.score, c.points, c.max, c.detail, c.remediation]);
      }
    }
    expect(all.length).toBe(checks);
  });

  test("ndjson (gzipped): one record per university and scan", async () => {
    const stats = await api("/api/v1/stats");
    const [counts] = await rows(
      `select count(*) filter (where type = 'university') as u, count(*) filter (where type = 'scan' and status = 'completed') as c from read_json_auto('${file("all.ndjson.gz")}')`,
    );
    expect([Number(counts?.u), Number(counts?.c)]).toEqual([stats.total_universities, stats.total_scans]);
  });

  test("API pages as CSV: DuckDB reads the rankings and leaderboards a client saved", async () => {
    for (const path of [
      "/api/v1/rankings?limit=100",
      "/api/v2/leaderboard/ssl?limit=50",
      "/api/v2/universities?limit=100&country=il",
    ]) {
      const csv = await app.handle(
        new Request(`http://unirank.test${path}`, { headers: { Accept: "text/csv" } }),
      );
      const saved = join(dir, "page.csv");
      writeFileSync(saved, await csv.text());
      const json = await api(path);
      const read = await rows(`select * from read_csv('${file("page.csv")}')`);
      expect(read.length).toBe(json.length);
      const id = (r: Row) => Number(r.id ?? r.university_id ?? (r.university as Row | undefined)?.id);
      expect(read.map(id)).toEqual(json.map(id));
    }
  });

  test.skipIf(SQLITE3 === null)(
    "sqlite: the snapshot opens in SQLite's shell with the API's counts and values",
    async () => {
      const query = (sql: string) => {
        const r = Bun.spawnSync([SQLITE3 as string, "-json", join(dir, "snapshot.db"), sql]);
        expect(r.exitCode).toBe(0);
        return JSON.parse(r.stdout.toString() || "[]") as Row[];
      };
      const stats = await api("/api/v1/stats");
      const [counts] = query(
        "select (select count(*) from universities) as u, (select count(*) from scans where status = 'completed') as c, (select count(*) from scan_evidence) as e, (select count(*) from api_keys) as k, (select count(*) from webhook_receivers) as w",
      );
      expect(counts).toEqual({
        u: stats.total_universities,
        c: stats.total_scans,
        e: AWKWARD_NAMES.length + 3, // every new scan, and the failed ones (a third)
        k: 0,
        w: 0,
      });
      for (const id of [1, 50, 125]) {
        const [u] = query(`select id, domain, name, country, created_at from universities where id = ${id}`);
        const { scan_count: _, ...university } = await api(`/api/v1/universities/${id}`);
        expect(u).toEqual(university);
      }
      const [meta] = query("select value from unirank_meta where key = 'unirank_version'");
      expect(meta?.value).toBe((await import("../../package.json")).version);
    },
  );
});
