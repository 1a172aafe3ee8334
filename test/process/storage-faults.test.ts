import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { closeSync, mkdirSync, openSync, renameSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { sql } from "kysely";
import { createKey, migrate, signRequest } from "../../lib/index.ts";
import { openSqlite } from "../../src/db/open.ts";
import { tempDir } from "../support/databases.ts";
import { writeFixture } from "../support/fixtures.ts";
import { runCli, type ServeProcess, startServe, until } from "../support/serve-process.ts";

/**
 * Storage faults under a real `unirank serve` on SQLite: a full disk (a small tmpfs, mounted by the test, which
 * needs root), an access-state file deleted, a data file replaced, files made immutable (`chattr +i`) before the
 * start and while serving.
 */

// biome-ignore lint/suspicious/noExplicitAny: JSON answers, read field by field
type Json = any;

const root = tempDir("unirank-storage-faults-");
const running: ServeProcess[] = [];
const mounts: string[] = [];
const immutable: string[] = [];
afterEach(async () => {
  for (const p of immutable.splice(0)) spawnSync("chattr", ["-i", p]);
  for (const s of running.splice(0)) await s.stop();
  for (const m of mounts.splice(0)) spawnSync("umount", ["-l", m]);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A tmpfs of `mb` MiB at a new folder, or why there cannot be one here. */
function mountTmpfs(mb: number): string | { skip: string } {
  const dir = join(root, `tmpfs-${mounts.length}`);
  mkdirSync(dir, { recursive: true });
  const r = spawnSync("mount", ["-t", "tmpfs", "-o", `size=${mb}m`, "tmpfs", dir]);
  if (r.status !== 0) return { skip: `cannot mount a tmpfs (root needed): ${String(r.stderr).trim()}` };
  mounts.push(dir);
  return dir;
}

/**
 * A new folder whose file system takes `chattr +i` (ext4, xfs, btrfs: yes; tmpfs, overlay: not always), or null
 * after saying why the test is skipped.
 */
function immutableCapableDir(prefix: string): string | null {
  const dir = tempDir(prefix);
  const probe = join(dir, "chattr-probe");
  writeFileSync(probe, "x");
  const r = spawnSync("chattr", ["+i", probe]);
  spawnSync("chattr", ["-i", probe]);
  rmSync(probe, { force: true });
  if (r.status === 0) return dir;
  console.warn(
    `[unirank tests] immutable-file test skipped: chattr +i is not possible here: ${String(r.stderr).trim() || r.error}`,
  );
  return null;
}

/** A migrated database with the fixture, everything checkpointed into the main file; and a signing key. */
async function makeDatabase(dir: string, name = "unirank.db") {
  const path = join(dir, name);
  const opened = openSqlite(path);
  await migrate(opened.db);
  await writeFixture(opened.db);
  const key = await createKey(opened.db, { name: "signed", requireSignature: true });
  await sql`pragma wal_checkpoint(truncate)`.execute(opened.db);
  await opened.close();
  return { path, key: key.key, secret: key.signing_secret ?? "" };
}

async function serve(db: string, ...args: string[]) {
  const s = await startServe(["--db", db, "--log-dir", join(root, "logs"), "--rate-limit", "1000", ...args]);
  running.push(s);
  const get = async (path: string, headers: Record<string, string> = {}) => {
    const r = await fetch(`${s.url}${path}`, { headers });
    return { status: r.status, headers: r.headers, body: (await r.json()) as Json };
  };
  /** Asks `/health` until `ok` holds for it (bounded: the server checks its files every second). */
  const healthUntil = async (ok: (body: Json, status: number) => boolean, ms = 10_000) => {
    const started = performance.now();
    let last = await get("/health");
    while (!ok(last.body, last.status) && performance.now() - started < ms) {
      await Bun.sleep(50);
      last = await get("/health");
    }
    return last;
  };
  return { ...s, get, healthUntil };
}

/** Fills the file system of `dir` to the last byte. */
function fill(dir: string): string {
  const path = join(dir, "filler");
  const fd = openSync(path, "w");
  const block = Buffer.alloc(1 << 16, 1);
  try {
    for (;;) writeSync(fd, block);
  } catch {
    // ENOSPC: full.
  }
  // The last partial block.
  try {
    for (;;) writeSync(fd, block, 0, 512);
  } catch {}
  closeSync(fd);
  return path;
}

const failing = (body: Json) =>
  (body.checks?.writes?.failing ?? []) as { what: string; cause: string; since: string }[];

describe("a full disk", () => {
  test("reads go on, writes fail by kind (limits in memory, audit kept, signed refused), /health and the log name it; then it recovers", async () => {
    const dir = mountTmpfs(24);
    if (typeof dir !== "string") {
      console.warn(`[unirank tests] full-disk test skipped: ${dir.skip}`);
      return;
    }
    const { path, key, secret } = await makeDatabase(dir);
    const s = await serve(path);
    expect((await s.get("/health")).body.checks.writes).toEqual({ status: "ok" });
    const filler = fill(dir);

    // Anonymous reads: answered, still limited (in memory), v1 and v2 (audited).
    for (const path of ["/api/v1/universities?limit=2", "/api/v2/rankings?limit=2", "/api/v1/stats"]) {
      const r = await s.get(path);
      expect([path, r.status]).toEqual([path, 200]);
      expect(r.headers.get("X-RateLimit-Remaining")).not.toBeNull();
    }
    const health = await s.healthUntil((b) => failing(b).some((f) => f.what === "rate limits"));
    expect(health.status).toBe(200);
    expect(health.body.status).toBe("degraded");
    expect(failing(health.body)).toContainEqual({
      what: "rate limits",
      cause: "storage full",
      since: expect.any(String),
    });
    expect(JSON.stringify(health.body)).not.toMatch(/SQLITE|select|insert/i);
    expect(s.log()).toMatch(/"message":"storage write failing".*SQLITE_FULL: database or disk is full/);
    expect(s.log()).not.toContain("cannot rollback");

    // A signed request cannot have its replay record stored: refused (fail closed), 503.
    const ts = Math.floor(Date.now() / 1000);
    const target = "/api/v1/stats";
    const signed = await s.get(target, {
      "X-API-Key": key,
      "X-Timestamp": String(ts),
      "X-Signature": signRequest(secret, ts, "GET", target),
    });
    expect(signed.status).toBe(503);
    expect(signed.body.error.code).toBe("UNAVAILABLE");

    // An import meanwhile names the cause.
    const records = join(root, "more.ndjson");
    writeFileSync(
      records,
      `${JSON.stringify({ type: "university", domain: "full.example", name: "Full", country: "DE" })}\n`,
    );
    const imported = await runCli(["import", records, "--db", path]);
    expect(imported.code).toBe(1);
    expect(imported.err).toContain("SQLITE_FULL");
    expect(imported.err).not.toContain("cannot rollback");

    // Space again: writes go through, /health is healthy, the audit rows kept in memory reach the file.
    rmSync(filler);
    await s.get("/api/v1/universities?limit=1");
    const healed = await s.healthUntil((b) => b.status === "healthy");
    expect(healed.body.checks.writes).toEqual({ status: "ok" });
    expect(s.log()).toContain('"message":"storage write recovered"');
    await s.stop();
    running.splice(running.indexOf(s), 1);
    const audit = await runCli(["audit", "--db", path, "--format", "ndjson"]);
    expect(audit.code).toBe(0);
    expect(audit.out).toContain("/api/v2/rankings?limit=2");
  }, 120_000);
});

describe("files deleted or replaced while serving", () => {
  test("the access-state file deleted: writes to it stop, /health degraded within seconds, reads go on", async () => {
    const dir = tempDir("unirank-access-deleted-");
    const { path } = await makeDatabase(dir);
    const s = await serve(path);
    expect((await s.get("/api/v2/rankings?limit=1")).status).toBe(200);
    rmSync(`${path}.access`);
    const health = await s.healthUntil((b) => failing(b).length > 0);
    expect(health.status).toBe(200);
    expect(health.body.status).toBe("degraded");
    expect(failing(health.body)).toContainEqual({
      what: "access state file",
      cause: "deleted",
      since: expect.any(String),
    });
    expect((await s.get("/api/v2/rankings?limit=1")).status).toBe(200);
    // The line is written after the state /health reads: wait for it.
    await until(
      "the log line",
      async () => s.log().includes(`${path}.access was deleted while in use`),
      10_000,
    );
  }, 60_000);

  test("the data file replaced (mv other.db unirank.db): /health unhealthy within seconds", async () => {
    const dir = tempDir("unirank-data-replaced-");
    const { path } = await makeDatabase(dir);
    const other = await makeDatabase(dir, "other.db");
    const s = await serve(path);
    expect((await s.get("/health")).body.status).toBe("healthy");
    renameSync(other.path, path);
    const health = await s.healthUntil((b) => b.status === "unhealthy");
    expect(health.status).toBe(503);
    expect(health.body.checks.database).toEqual({
      status: "error",
      error: "database file replaced while serving",
    });
    // The line is written after the state /health reads: wait for it.
    await until("the log line", async () => s.log().includes(`${path} was replaced while in use`), 10_000);
  }, 60_000);
});

test("a corrupt access-state file at the start: serve stops, naming the file and what it holds", async () => {
  const dir = tempDir("unirank-access-corrupt-");
  const { path } = await makeDatabase(dir);
  writeFileSync(`${path}.access`, Buffer.alloc(8192, 0x5a));
  const refused = await runCli(["serve", "--db", path, "--port", "0", "--log-dir", join(root, "logs")]);
  expect(refused.code).toBe(1);
  expect(refused.err).toBe(
    `unirank: cannot open ${path}.access: SQLITE_NOTADB: file is not a database; it is the access-state file (rate limits, signature replays, the audit log) beside ${path}\n`,
  );
}, 60_000);

describe("immutable files (chattr +i)", () => {
  test("at the start: serve refuses, naming the file and the likely cause", async () => {
    const dir = immutableCapableDir("unirank-immutable-start-");
    if (dir === null) return;
    const { path } = await makeDatabase(dir);
    // The access-state file as a server leaves it, then made immutable.
    const first = await serve(path);
    await first.stop();
    running.splice(running.indexOf(first), 1);
    spawnSync("chattr", ["+i", `${path}.access`]);
    immutable.push(`${path}.access`);
    const refused = await runCli(["serve", "--db", path, "--port", "0", "--log-dir", join(root, "logs")]);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain(
      `unirank: cannot open ${path}.access: ${path}.access cannot be written (EPERM`,
    );
    expect(refused.err).toContain("chattr +i");
    expect(refused.err).not.toMatch(/Bus error|panic/);
  }, 60_000);

  test("while serving: writes to the access state stop before SQLite must grow its WAL index; no Bus error", async () => {
    const dir = immutableCapableDir("unirank-immutable-serving-");
    if (dir === null) return;
    const { path } = await makeDatabase(dir);
    const s = await serve(path);
    expect((await s.get("/api/v2/rankings?limit=1")).status).toBe(200);
    const files = [`${path}.access`, `${path}.access-wal`, `${path}.access-shm`];
    for (const f of files) {
      spawnSync("chattr", ["+i", f]);
      immutable.push(f);
    }
    const health = await s.healthUntil((b) => failing(b).some((f) => f.what === "access state file"));
    expect(failing(health.body)).toContainEqual({
      what: "access state file",
      cause: "not writable",
      since: expect.any(String),
    });
    // Enough audited and counted requests to grow a WAL past its first index block, were they written.
    for (let i = 0; i < 300; i++) {
      const r = await fetch(`${s.url}/api/v2/rankings?limit=50&_=${i}`);
      expect(r.status).toBe(200);
      await r.arrayBuffer();
    }
    expect(s.proc.exitCode).toBeNull();
    // Writable again: the writes resume.
    for (const f of immutable.splice(0)) spawnSync("chattr", ["-i", f]);
    await s.healthUntil((b) => !failing(b).some((f) => f.what === "access state file"));
    await s.get("/api/v1/universities?limit=1");
    const healed = await s.healthUntil((b) => b.status === "healthy");
    expect(healed.body.checks.writes).toEqual({ status: "ok" });
  }, 120_000);
});
