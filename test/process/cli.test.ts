import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { sql } from "kysely";
import { type DB, type IngestRecord, SUB_SCORE_NAMES } from "../../lib/index.ts";
import { generateDataset } from "../../lib/seed/generate.ts";
import pkg from "../../package.json" with { type: "json" };
import { loadConfig } from "../../src/config.ts";
import { openSqlite } from "../../src/db/open.ts";
import { tempDir } from "../support/databases.ts";

const ROOT = resolve(import.meta.dir, "../..");
const CLI = join(ROOT, "src", "cli.ts");
const dir = tempDir("unirank-cli-");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `bun src/cli.ts ...args` in `cwd` with a clean unirank environment. */
async function cli(args: string[], cwd = dir) {
  const env = { ...process.env };
  for (const k of Object.keys(env))
    if (k.startsWith("UNIRANK_") || k === "PORT" || k === "HOST") delete env[k];
  const proc = Bun.spawn([process.execPath, CLI, ...args], { cwd, env, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { stdout, stderr, code };
}

async function withDb<T>(path: string, f: (db: DB) => Promise<T>): Promise<T> {
  const opened = openSqlite(path, { readonly: true });
  try {
    return await f(opened.db);
  } finally {
    await opened.close();
  }
}

/** Every row of the data tables, in a stable order. */
const dump = (path: string) =>
  withDb(path, async (db) => ({
    universities: await db.selectFrom("universities").selectAll().orderBy("id").execute(),
    scans: await db.selectFrom("scans").selectAll().orderBy("id").execute(),
    latest: await db.selectFrom("latest_scans").selectAll().orderBy("university_id").execute(),
  }));

describe("unirank CLI", () => {
  test("--help on the program and on serve, seed and migrate exits 0 and lists the options", async () => {
    const main = await cli(["--help"]);
    expect(main.code).toBe(0);
    for (const command of ["serve", "seed", "migrate"]) expect(main.stdout).toContain(command);
    const expected: Record<string, string[]> = {
      serve: [
        "--port",
        "--host",
        "--db",
        "--rate-limit",
        "--trust-proxy",
        "--log-dir",
        "--no-cache",
        "--cache-entries",
      ],
      seed: ["--universities", "--seed", "--db", "--out", "--anchor"],
      migrate: ["--db"],
    };
    for (const [command, options] of Object.entries(expected)) {
      const r = await cli([command, "--help"]);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(`Usage: unirank ${command}`);
      for (const option of options) expect(r.stdout).toContain(option);
    }
    const version = await cli(["--version"]);
    expect(version.stdout.trim()).toBe(pkg.version);
  });

  test("bad arguments exit non-zero with a message", async () => {
    const r = await cli(["seed", "--universities", "abc", "--db", join(dir, "bad.db")]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("universities");
    const unknown = await cli(["frobnicate"]);
    expect(unknown.code).not.toBe(0);
  });

  test("a count of 0 is refused; 0 is taken where it means off; each default is said once", async () => {
    const db = join(dir, "zero.db");
    for (const args of [
      ["seed", "--universities", "0", "--db", db],
      ["scan", "--all", "--limit", "0", "--db", db],
      ["scan", "--all", "--concurrency", "0", "--db", db],
      ["webhooks", "deliveries", "--limit", "0", "--db", db],
    ]) {
      const r = await cli(args);
      expect(r.code, args.join(" ")).not.toBe(0);
      expect(r.stderr, args.join(" ")).toMatch(/must be an integer from 1 to/);
    }
    const unlimited = await cli(["keys", "create", "ci", "--rate-limit", "0", "--json", "--db", db]);
    expect(unlimited.code, unlimited.stderr).toBe(0);
    expect(JSON.parse(unlimited.stdout).rate_limit).toBe(0);
    const help = await cli(["scan", "--help"]);
    expect(help.stdout).toContain("scans at once (default 8)");
    expect(help.stdout).not.toContain("(default: 8)");
  }, 60_000);

  test("migrate on a new file creates the schema; a second run has nothing to do", async () => {
    const path = join(dir, "migrate.db");
    const first = await cli(["migrate", "--db", path]);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain("001-core");
    const tables = await withDb(path, async (db) =>
      (await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(db)).rows.map(
        (r) => r.name,
      ),
    );
    for (const t of ["universities", "scans", "latest_scans", "unirank_meta"]) expect(tables).toContain(t);
    const second = await cli(["migrate", "--db", path]);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain("already up to date");
  });

  test("seed --universities 30 --seed 5 twice gives identical data; re-seeding a file changes nothing", async () => {
    const a = join(dir, "seed-a.db");
    const b = join(dir, "seed-b.db");
    const ra = await cli(["seed", "--universities", "30", "--seed", "5", "--db", a]);
    expect(ra.code).toBe(0);
    expect(ra.stdout).toContain("30 universities");
    expect((await cli(["seed", "--universities", "30", "--seed", "5", "--db", b])).code).toBe(0);
    const da = await dump(a);
    expect(da.universities).toHaveLength(30);
    expect(da.scans.length).toBeGreaterThan(30);
    expect(await dump(b)).toEqual(da);
    expect((await cli(["seed", "--universities", "30", "--seed", "5", "--db", a])).code).toBe(0);
    expect(await dump(a)).toEqual(da);
    const other = join(dir, "seed-c.db");
    expect((await cli(["seed", "--universities", "30", "--seed", "6", "--db", other])).code).toBe(0);
    expect((await dump(other)).universities).not.toEqual(da.universities);
  });

  test("the shipped demo data is exactly `seed` with its defaults", async () => {
    const out = join(dir, "demo.ndjson");
    const r = await cli(["seed", "--out", out]);
    expect(r.code).toBe(0);
    expect(readFileSync(out, "utf8")).toBe(readFileSync(join(ROOT, "data", "demo.ndjson"), "utf8"));
  });

  test("serve with no database file creates unirank.db with the demo data and serves it", async () => {
    const cwd = tempDir("unirank-serve-");
    const env = { ...process.env };
    for (const k of Object.keys(env))
      if (k.startsWith("UNIRANK_") || k === "PORT" || k === "HOST") delete env[k];
    const proc = Bun.spawn([process.execPath, CLI, "serve", "--port", "0", "--rate-limit", "0"], {
      cwd,
      env,
      stdout: "pipe",
      stderr: "pipe",
    });
    try {
      const url = await new Promise<string>((ok, fail) => {
        const timer = setTimeout(() => fail(new Error("no 'listening' line within 20 s")), 20_000);
        let seen = "";
        const decoder = new TextDecoder();
        (async () => {
          const reader = (proc.stderr as ReadableStream<Uint8Array>).getReader();
          for (let r = await reader.read(); !r.done; r = await reader.read()) {
            seen += decoder.decode(r.value);
            const m = /"message":"unirank listening","url":"(http:\/\/[^"]+)"/.exec(seen);
            if (m?.[1]) {
              clearTimeout(timer);
              ok(m[1]);
              return;
            }
          }
          fail(new Error(`serve exited: ${seen}`));
        })();
      });
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(existsSync(join(cwd, "unirank.db"))).toBe(true);
      const stats = await (await fetch(`${url}/api/v1/stats`)).json();
      expect(stats.data.total_universities).toBe(500);
      expect(stats.data.countries).toBeGreaterThanOrEqual(40);
      const health = await (await fetch(`${url}/health`)).json();
      expect(health.status).toBe("healthy");
    } finally {
      proc.kill("SIGTERM");
      await proc.exited;
      rmSync(cwd, { recursive: true, force: true });
    }
    expect(pkg.scripts.start).toBe("bun src/cli.ts serve");
  });
});

describe("the generated demo dataset", () => {
  const records: IngestRecord[] = [...generateDataset()];
  const universities = records.filter((r) => r.type === "university");
  const scans = records.filter((r) => r.type === "scan");
  const completed = scans.filter((s) => s.status === "completed");

  test("fictional universities under .example across 40+ countries, with accents and non-Latin scripts", () => {
    expect(universities).toHaveLength(500);
    expect(universities.every((u) => u.domain.endsWith(".example"))).toBe(true);
    expect(new Set(universities.map((u) => u.domain)).size).toBe(500);
    expect(new Set(universities.map((u) => u.country)).size).toBeGreaterThanOrEqual(40);
    const names = universities.map((u) => u.name);
    expect(names.some((n) => /[éèçôü]/.test(n))).toBe(true);
    for (const script of [
      /\p{Script=Cyrillic}/u,
      /\p{Script=Greek}/u,
      /\p{Script=Han}/u,
      /\p{Script=Arabic}/u,
    ]) {
      expect(names.some((n) => script.test(n))).toBe(true);
    }
  });

  test("several completed scans over two years, null sub-scores, ties, pending/failed, never scanned", () => {
    const perUniversity = new Map<string, number>();
    for (const s of completed) perUniversity.set(s.domain, (perUniversity.get(s.domain) ?? 0) + 1);
    expect([...perUniversity.values()].filter((n) => n >= 3).length).toBeGreaterThan(300);
    const times = completed.map((s) => Date.parse(s.completed_at!));
    expect((Math.max(...times) - Math.min(...times)) / 86_400_000).toBeGreaterThan(600);
    expect(completed.some((s) => SUB_SCORE_NAMES.some((n) => s[n] === null))).toBe(true);
    const overall = completed.map((s) => s.overall_score);
    expect(new Set(overall).size).toBeLessThan(overall.length);
    expect(scans.some((s) => s.status === "pending")).toBe(true);
    expect(scans.some((s) => s.status === "failed")).toBe(true);
    expect(universities.length - perUniversity.size).toBeGreaterThan(5);
    for (const s of completed) {
      for (const n of SUB_SCORE_NAMES) {
        const v = s[n];
        if (v != null) expect(v >= 0 && v <= 100).toBe(true);
      }
    }
  });

  test("the same seed gives the same records; another seed does not", () => {
    expect([...generateDataset({ universities: 30, seed: 5 })]).toEqual([
      ...generateDataset({ universities: 30, seed: 5 }),
    ]);
    expect([...generateDataset({ universities: 30, seed: 6 })]).not.toEqual([
      ...generateDataset({ universities: 30, seed: 5 }),
    ]);
  });
});

describe("configuration (loadConfig: options, then environment, then defaults)", () => {
  test("defaults", () => {
    const c = loadConfig({}, {});
    expect(c).toMatchObject({
      port: 3000,
      host: "127.0.0.1",
      rateLimit: 100,
      trustProxy: [],
      minFreeDiskGb: 1,
      cache: true,
      cacheEntries: 1000,
      gcHeadroomMb: 32,
      historyScans: null,
    });
    expect(c.db).toBe(resolve("unirank.db"));
    expect(c.logDir).toBe(join(resolve("."), "logs"));
  });

  test("environment variables, and options winning over them", () => {
    const env = {
      PORT: "8080",
      HOST: "0.0.0.0",
      UNIRANK_DB: "/srv/u.db",
      UNIRANK_RATE_LIMIT: "0",
      UNIRANK_TRUST_PROXY: "10.0.0.0/8, 127.0.0.1",
      UNIRANK_LOG_DIR: "/var/log/unirank",
      UNIRANK_MIN_FREE_DISK_GB: "0.5",
      UNIRANK_CACHE: "0",
      UNIRANK_CACHE_ENTRIES: "50",
      UNIRANK_GC_HEADROOM_MB: "0",
      UNIRANK_HISTORY_SCANS: "0",
    };
    expect(loadConfig({}, env)).toMatchObject({
      port: 8080,
      host: "0.0.0.0",
      db: "/srv/u.db",
      rateLimit: 0,
      trustProxy: ["10.0.0.0/8", "127.0.0.1"],
      logDir: "/var/log/unirank",
      minFreeDiskGb: 0.5,
      cache: false,
      cacheEntries: 50,
      gcHeadroomMb: 0,
      historyScans: 0,
    });
    expect(loadConfig({ gcHeadroom: "64" }, env).gcHeadroomMb).toBe(64);
    expect(loadConfig({ historyScans: 500 }, env).historyScans).toBe(500);
    expect(loadConfig({ port: 9, db: "/x.db" }, env)).toMatchObject({ port: 9, db: "/x.db" });
    expect(loadConfig({ db: "/data/u.db" }, {}).logDir).toBe("/data/logs");
    expect(loadConfig({ cache: false }, {}).cache).toBe(false);
    for (const off of ["0", "false", "off", "no", "OFF"])
      expect(loadConfig({}, { UNIRANK_CACHE: off }).cache).toBe(false);
    expect(loadConfig({}, { UNIRANK_CACHE: "1" }).cache).toBe(true);
    expect(loadConfig({}, { UNIRANK_CACHE_ENTRIES: "0" }).cache).toBe(false);
  });

  test("malformed values are refused at start, not silently used", () => {
    expect(() => loadConfig({}, { PORT: "http" })).toThrow();
    expect(() => loadConfig({}, { PORT: "70000" })).toThrow();
    expect(() => loadConfig({}, { UNIRANK_RATE_LIMIT: "-5" })).toThrow();
    expect(() => loadConfig({}, { UNIRANK_GC_HEADROOM_MB: "32MB" })).toThrow();
    expect(() => loadConfig({}, { UNIRANK_MIN_FREE_DISK_GB: "abc" })).toThrow();
    expect(() => loadConfig({}, { UNIRANK_CACHE_ENTRIES: "many" })).toThrow();
    expect(() => loadConfig({}, { UNIRANK_HISTORY_SCANS: "2e6" })).toThrow(/history scans/);
  });
});
