import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../support/databases.ts";
import { runCli, type ServeProcess, startServe } from "../support/serve-process.ts";

/**
 * How `serve` starts and how demo and real data stay apart, as processes: a port in use and a missing directory
 * leave nothing behind, `--no-demo` starts empty, real universities are refused beside demo ones unless asked,
 * and `demo remove` takes the demo out while a server serves the file.
 */

const dirs: string[] = [];
const servers: ServeProcess[] = [];
const dirFor = (prefix: string) => {
  const d = tempDir(prefix);
  dirs.push(d);
  return d;
};
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const serve = async (args: string[], env: Record<string, string> = {}) => {
  const s = await startServe(args, env);
  servers.push(s);
  return s;
};
const total = async (s: ServeProcess, path: string) =>
  ((await (await fetch(`${s.url}${path}`)).json()) as { meta: { total: number } }).meta.total;

describe("starting serve", () => {
  test("a port in use fails the start before any file is made", async () => {
    const holder = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("taken") });
    try {
      const dir = dirFor("unirank-port-");
      const r = await runCli([
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        String(holder.port),
        "--db",
        join(dir, "u.db"),
      ]);
      expect(r.code).toBe(1);
      expect(r.err).toMatch(/in use|EADDRINUSE/i);
      expect(readdirSync(dir)).toEqual([]);
      // The same for the metrics address.
      const m = await runCli([
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        "0",
        "--metrics-listen",
        `127.0.0.1:${holder.port}`,
        "--db",
        join(dir, "u.db"),
      ]);
      expect(m.code).toBe(1);
      expect(m.err).toMatch(/in use|EADDRINUSE/i);
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      holder.stop(true);
    }
  }, 60_000);

  test("a --db whose directory does not exist is an error, and no directory is made", async () => {
    const dir = dirFor("unirank-nodir-");
    const missing = join(dir, "no", "such");
    for (const args of [
      ["serve", "--port", "0", "--db", join(missing, "u.db")],
      ["registry", "import", "--country", "LU", "--db", join(missing, "u.db")],
      ["migrate", "--db", join(missing, "u.db")],
    ]) {
      const r = await runCli(args);
      expect(r.code).toBe(1);
      expect(r.err).toContain(`${join(dir, "no", "such")} does not exist`);
      expect(existsSync(join(dir, "no"))).toBe(false);
    }
  }, 60_000);

  test("--no-demo and UNIRANK_DEMO=0 start a new database empty", async () => {
    const dir = dirFor("unirank-nodemo-");
    const a = await serve(["--db", join(dir, "a.db"), "--no-demo"]);
    expect(await total(a, "/api/v1/universities")).toBe(0);
    const b = await serve(["--db", join(dir, "b.db")], { UNIRANK_DEMO: "0" });
    expect(await total(b, "/api/v1/universities")).toBe(0);
    const c = await serve(["--db", join(dir, "c.db")]);
    expect(await total(c, "/api/v1/universities")).toBe(500);
    expect(c.log()).toContain("created database with the synthetic demo dataset");
    expect(a.log()).not.toContain("synthetic demo");
  }, 90_000);

  test("git ignores every file a server writes beside its database", async () => {
    const dir = dirFor("unirank-files-");
    const s = await serve(["--db", join(dir, "unirank.db"), "--access-log"]);
    await (await fetch(`${s.url}/api/v2/universities?limit=1`)).arrayBuffer();
    const written = readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => join(e.parentPath, e.name).slice(dir.length + 1));
    expect(written).toEqual(
      expect.arrayContaining([
        "unirank.db",
        "unirank.db-wal",
        "unirank.db.access",
        join("logs", "unirank.log"),
      ]),
    );
    // As if the server had run in the checkout's root: `git check-ignore` lists the names it ignores.
    const check = Bun.spawnSync(["git", "check-ignore", "--no-index", ...written], {
      cwd: join(import.meta.dir, "../.."),
    });
    expect(check.stdout.toString().trim().split("\n").sort()).toEqual([...written].sort());
  }, 60_000);
});

describe("demo and real data apart", () => {
  test("registry import and scan refuse a demo database; --with-demo mixes; demo remove takes it out while served", async () => {
    const dir = dirFor("unirank-demo-");
    const db = join(dir, "u.db");
    const server = await serve(["--db", db, "--rate-limit", "0"]);
    expect(await total(server, "/api/v1/universities")).toBe(500);

    const refused = await runCli(["registry", "import", "--country", "LU", "--db", db]);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain("holds 500 synthetic demo universities");
    expect(refused.err).toContain("unirank demo remove");
    expect(refused.err).toContain("--with-demo");
    const scan = await runCli(["scan", "--all", "--db", db]);
    expect(scan.code).toBe(1);
    expect(scan.err).toContain("holds 500 synthetic demo universities");
    expect(await total(server, "/api/v1/universities")).toBe(500);

    const mixed = await runCli(["registry", "import", "--country", "LU", "--with-demo", "--db", db]);
    expect(mixed.code).toBe(0);
    const added = Number(/(\d+) added/.exec(mixed.out)?.[1]);
    expect(added).toBeGreaterThan(0);
    expect(await total(server, "/api/v1/universities")).toBe(500 + added);
    expect(await total(server, "/api/v1/rankings")).toBeGreaterThan(0);

    const removed = await runCli(["demo", "remove", "--db", db]);
    expect(removed.code).toBe(0);
    expect(removed.out).toMatch(/removed 500 demo universities and \d+ scans/);
    // The running server follows at once: only the real (unscanned) universities, nothing ranked.
    expect(await total(server, "/api/v1/universities")).toBe(added);
    expect(await total(server, "/api/v1/rankings")).toBe(0);
    const stats = (await (await fetch(`${server.url}/api/v1/stats`)).json()) as {
      data: { total_universities: number };
    };
    expect(stats.data.total_universities).toBe(added);

    // Now real data only: the commands go on without --with-demo, and removing again finds nothing.
    expect((await runCli(["registry", "import", "--country", "LU", "--db", db])).code).toBe(0);
    const again = await runCli(["demo", "remove", "--db", db]);
    expect(again.out).toContain("no demo universities");
  }, 120_000);
});
