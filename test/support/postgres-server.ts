import { spawnSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";

/**
 * A real PostgreSQL server for the test run: Debian's `postgresql` binaries, `initdb` in a temporary directory
 * (as the `postgres` user when we are root, since PostgreSQL refuses to run as root), listening on a loopback
 * port and a socket in that directory. Started once per `bun test` process, stopped at the end
 * (test/support/setup.ts) or, failing that, at process exit.
 *
 * `UNIRANK_TEST_POSTGRES=postgres://user@host/db` uses an existing server instead (databases are created on it);
 * `UNIRANK_TEST_POSTGRES=off` skips PostgreSQL.
 */
export interface TestPostgres {
  /** URL of the maintenance database (`postgres`), for CREATE DATABASE. */
  adminUrl: string;
  /** URL of a database on this server. */
  urlFor(database: string): string;
  /** Creates an empty database and returns its URL. */
  createDatabase(prefix?: string): Promise<string>;
  dropDatabase(name: string): Promise<void>;
}

export type PostgresAvailability = { ok: true; server: TestPostgres } | { ok: false; reason: string };

let started: Promise<PostgresAvailability> | null = null;
let stopSync: (() => void) | null = null;
let counter = 0;

function findBinDir(): string | null {
  const fromPath = spawnSync("sh", ["-c", "command -v initdb"], { encoding: "utf8" }).stdout.trim();
  const candidates: string[] = [];
  if (existsSync("/usr/lib/postgresql")) {
    const versions = readdirSync("/usr/lib/postgresql")
      .filter((v) => /^\d+$/.test(v))
      .sort((a, b) => Number(b) - Number(a));
    for (const v of versions) candidates.push(`/usr/lib/postgresql/${v}/bin`);
  }
  if (fromPath) candidates.push(fromPath.replace(/\/initdb$/, ""));
  return candidates.find((d) => existsSync(join(d, "initdb")) && existsSync(join(d, "pg_ctl"))) ?? null;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const address = srv.address();
      const port = typeof address === "object" && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

function makeServer(adminUrl: string): TestPostgres {
  const urlFor = (database: string) => {
    const u = new URL(adminUrl);
    u.pathname = `/${database}`;
    return u.toString();
  };
  const admin = async <T>(f: (c: pg.Client) => Promise<T>): Promise<T> => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      return await f(client);
    } finally {
      await client.end();
    }
  };
  return {
    adminUrl,
    urlFor,
    async createDatabase(prefix = "unirank_test") {
      const name = `${prefix}_${process.pid}_${++counter}`;
      await admin((c) => c.query(`create database "${name}"`));
      return urlFor(name);
    },
    async dropDatabase(name: string) {
      await admin((c) => c.query(`drop database if exists "${name}" with (force)`));
    },
  };
}

async function start(): Promise<PostgresAvailability> {
  const external = process.env.UNIRANK_TEST_POSTGRES;
  if (external === "off") return { ok: false, reason: "UNIRANK_TEST_POSTGRES=off" };
  if (external) return { ok: true, server: makeServer(external) };

  const bin = findBinDir();
  if (!bin)
    return {
      ok: false,
      reason: "PostgreSQL binaries (initdb, pg_ctl) not found; apt-get install postgresql",
    };
  const asRoot = process.getuid?.() === 0;
  let uid = -1;
  let gid = -1;
  if (asRoot) {
    const id = spawnSync("id", ["-u", "postgres"], { encoding: "utf8" });
    const g = spawnSync("id", ["-g", "postgres"], { encoding: "utf8" });
    if (id.status !== 0) return { ok: false, reason: "running as root and there is no postgres user" };
    uid = Number(id.stdout.trim());
    gid = Number(g.stdout.trim());
  }
  const dir = mkdtempSync(join(tmpdir(), "unirank-pg-"));
  chmodSync(dir, 0o700);
  if (asRoot) chownSync(dir, uid, gid);
  const data = join(dir, "data");
  const log = join(dir, "server.log");
  const run = (cmd: string, args: string[]) => {
    const full = asRoot
      ? ["runuser", ["-u", "postgres", "--", join(bin, cmd), ...args]]
      : [join(bin, cmd), args];
    return spawnSync(full[0] as string, full[1] as string[], {
      encoding: "utf8",
      cwd: dir,
      timeout: 120_000,
    });
  };
  const cleanup = () => rmSync(dir, { recursive: true, force: true });

  // ICU en-US collation where available: a realistic non-byte-wise default, so ordering bugs show up here.
  let init = run("initdb", [
    "-D",
    data,
    "-U",
    "postgres",
    "--auth=trust",
    "--encoding=UTF8",
    "--locale=C.UTF-8",
    "--locale-provider=icu",
    "--icu-locale=en-US",
    "--no-sync",
  ]);
  if (init.status !== 0) {
    rmSync(data, { recursive: true, force: true });
    init = run("initdb", ["-D", data, "-U", "postgres", "--auth=trust", "--encoding=UTF8", "--no-sync"]);
  }
  if (init.status !== 0) {
    cleanup();
    return {
      ok: false,
      reason: `initdb failed: ${(init.stderr || init.error?.message || "").trim().slice(0, 300)}`,
    };
  }
  const port = await freePort();
  const options = [
    `-p ${port}`,
    `-k ${dir}`,
    "-c listen_addresses=127.0.0.1",
    "-c fsync=off",
    "-c synchronous_commit=off",
    "-c full_page_writes=off",
    "-c max_connections=300",
    "-c shared_buffers=64MB",
  ].join(" ");
  const up = run("pg_ctl", ["start", "-D", data, "-l", log, "-w", "-t", "60", "-o", options]);
  if (up.status !== 0) {
    const tail = existsSync(log) ? readFileSync(log, "utf8").slice(-400) : up.stderr;
    cleanup();
    return { ok: false, reason: `PostgreSQL did not start: ${tail.trim()}` };
  }
  stopSync = () => {
    stopSync = null;
    run("pg_ctl", ["stop", "-D", data, "-m", "immediate", "-w", "-t", "30"]);
    cleanup();
  };
  process.once("exit", () => stopSync?.());
  return { ok: true, server: makeServer(`postgres://postgres@127.0.0.1:${port}/postgres`) };
}

/** Starts the test server on first call; later calls share it. */
export function testPostgres(): Promise<PostgresAvailability> {
  started ??= start().catch((e: unknown) => ({
    ok: false,
    reason: e instanceof Error ? e.message : String(e),
  }));
  return started;
}

/** Stops the server if this process started one. */
export function stopTestPostgres(): void {
  stopSync?.();
}
