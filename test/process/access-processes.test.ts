import { afterAll, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Subprocess } from "bun";
import { describeEachDatabase, tempDir } from "../support/databases.ts";

/** Real `unirank` processes: the CLI round trip, a real server, a grep for the key, two servers sharing limits. */

const ROOT = resolve(import.meta.dir, "../..");
const CLI = join(ROOT, "src", "cli.ts");
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function cleanEnv() {
  const env = { ...process.env };
  for (const k of Object.keys(env))
    if (k.startsWith("UNIRANK_") || k === "PORT" || k === "HOST") delete env[k];
  return env;
}

async function cli(args: string[], cwd: string) {
  const proc = Bun.spawn([process.execPath, CLI, ...args], {
    cwd,
    env: cleanEnv(),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { stdout, stderr, code };
}

interface Served {
  url: string;
  proc: Subprocess<"ignore", "pipe", "pipe">;
  /** Resolves with everything the process wrote once it has exited. */
  output: Promise<string>;
}

async function serve(args: string[], cwd: string): Promise<Served> {
  const proc = Bun.spawn([process.execPath, CLI, "serve", "--port", "0", ...args], {
    cwd,
    env: cleanEnv(),
    stdout: "pipe",
    stderr: "pipe",
  });
  const reader = proc.stderr.getReader();
  let text = "";
  const decoder = new TextDecoder();
  const deadline = Date.now() + 20_000;
  let url: string | undefined;
  while (!url && Date.now() < deadline) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`serve exited: ${text}`);
    text += decoder.decode(value);
    url = /"url":"([^"]+)"/.exec(text)?.[1];
  }
  if (!url) throw new Error(`serve did not start: ${text}`);
  const output = (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value);
    }
    return text + (await new Response(proc.stdout).text());
  })();
  return { url, proc, output };
}

async function stop(s: Served): Promise<string> {
  s.proc.kill("SIGTERM");
  await s.proc.exited;
  return s.output;
}

const keyOf = (stdout: string) => /key:\s+(urk_\S+)/.exec(stdout)?.[1] ?? "";

describeEachDatabase("access control through real processes", (get) => {
  test("keys create/list/revoke round trip; the key works, is audited redacted, and appears nowhere", async () => {
    const { location, kind } = get();
    if (!location) return; // PGlite lives in this process only
    const dir = tempDir("unirank-access-");
    dirs.push(dir);
    const logDir = join(dir, "logs");
    const db = kind === "sqlite" ? join(dir, "access.db") : location;

    const help = await cli(["keys", "create", "--help"], dir);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("--require-signature");
    for (const sub of [["keys", "list"], ["keys", "revoke"], ["audit"]]) {
      const h = await cli([...sub, "--help"], dir);
      expect(h.code).toBe(0);
      expect(h.stdout).toContain("--db");
    }

    const created = await cli(["keys", "create", "round trip", "--rate-limit", "50", "--db", db], dir);
    expect(created.code).toBe(0);
    const key = keyOf(created.stdout);
    expect(key).toMatch(/^urk_[0-9A-Za-z]{36}$/);
    expect(created.stdout).not.toContain("signing secret");
    const signed = await cli(["keys", "create", "signer", "--require-signature", "--db", db], dir);
    const secret = /signing secret:\s+(urs_\S+)/.exec(signed.stdout)?.[1] ?? "";
    expect(secret).toMatch(/^urs_/);
    const signedKey = keyOf(signed.stdout);
    const id = Number(/created key (\d+)/.exec(created.stdout)?.[1]);

    const listed = await cli(["keys", "list", "--db", db], dir);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain("round trip");
    expect(listed.stdout).toContain(key.slice(0, 10));
    expect(listed.stdout).not.toContain(key);
    expect(listed.stdout).not.toContain(secret);

    const server = await serve(["--db", db, "--log-dir", logDir, "--rate-limit", "3"], dir);
    const bodies: string[] = [];
    const call = async (path: string, headers: Record<string, string> = {}) => {
      const r = await fetch(`${server.url}${path}`, { headers });
      bodies.push(JSON.stringify([...r.headers]), await r.text());
      return r;
    };
    const typo = `${key.slice(0, 20)}${key[20] === "x" ? "y" : "x"}${key.slice(21)}`;
    try {
      expect((await call("/api/v2/universities?limit=1", { "X-API-Key": key })).status).toBe(200);
      expect((await call(`/api/v1/universities?limit=1&api_key=${key}`)).status).toBe(200);
      const bearer = await call("/api/v2/schema", { Authorization: `Bearer ${key}` });
      expect(bearer.status).toBe(200);
      expect(bearer.headers.get("X-RateLimit-Limit")).toBe("50");
      expect((await call(`/api/v2/universities?api_key=${typo}`)).status).toBe(401);
      expect((await call(`/api/v2/universities?api_key=${key}`, { "X-API-Key": signedKey })).status).toBe(
        400,
      );
      expect((await call("/api/v2/universities", { "X-API-Key": signedKey })).status).toBe(401);
      expect((await call(`/api/v2/nothing-here?api_key=${key}`)).status).toBe(404);

      const revoked = await cli(["keys", "revoke", String(id), "--db", db], dir);
      expect(revoked.code).toBe(0);
      expect(revoked.stdout).toContain("revoked key");
      const after = await call("/api/v2/universities", { "X-API-Key": key });
      expect(after.status).toBe(401);
      expect(after.headers.get("WWW-Authenticate")).toContain("Bearer");
      expect((await cli(["keys", "list", "--db", db], dir)).stdout).toMatch(
        /round trip.*\d{4}-\d\d-\d\dT.*\d{4}-\d\d-\d\dT/,
      );
    } finally {
      bodies.push(await stop(server)); // SIGTERM flushes the audit buffer
    }

    const audit = await cli(["audit", "--db", db], dir);
    expect(audit.code).toBe(0);
    const rows = audit.stdout
      .trim()
      .split("\n")
      .map(
        (l) => JSON.parse(l) as { key_id: number | null; path: string; status: number; client_ip: string },
      );
    const mine = rows.filter((r) => r.key_id === id);
    expect(mine.length).toBeGreaterThanOrEqual(3);
    expect(
      rows.some((r) => r.path === "/api/v1/universities?limit=1&api_key=REDACTED" && r.status === 200),
    ).toBe(true);
    expect(rows.some((r) => r.status === 401 && r.key_id === null)).toBe(true);
    expect(rows.every((r) => r.client_ip === "127.0.0.1")).toBe(true);
    const csv = await cli(["audit", "--format", "csv", "--since", "1h", "--db", db], dir);
    expect(csv.stdout.split("\n")[0]).toBe(
      "id,time,request_id,key_id,client_ip,method,path,status,duration_ms",
    );
    expect(csv.stdout.trim().split("\n").length).toBe(rows.length + 1);
    const future = await cli(["audit", "--since", "2999-01-01", "--db", db], dir);
    expect(future.stdout).toBe("");
    expect((await cli(["audit", "--format", "xml", "--db", db], dir)).code).not.toBe(0);

    // The key (and the typo of it, and the signing secret) appear in no file the test produced.
    const files: string[] = [];
    const walk = (d: string) => {
      for (const e of readdirSync(d, { withFileTypes: true })) {
        if (e.isDirectory()) walk(join(d, e.name));
        else files.push(join(d, e.name));
      }
    };
    walk(dir);
    expect(files.some((f) => f.startsWith(logDir))).toBe(true);
    if (kind === "sqlite") expect(files.some((f) => f.endsWith("access.db"))).toBe(true);
    const outputs = [audit.stdout, csv.stdout, listed.stdout, bodies.join("\n")];
    for (const [name, text] of [
      ...files.map((f): [string, string] => [f, readFileSync(f).toString("latin1")]),
      ...outputs.map((o, i): [string, string] => [`output ${i}`, o]),
    ]) {
      expect(`${name}: ${text.includes(key) || text.includes(typo) || text.includes(signedKey)}`).toBe(
        `${name}: false`,
      );
      // The signing secret is stored in the database (verification needs it) and nowhere else.
      if (!name.includes("access.db")) expect(`${name}: ${text.includes(secret)}`).toBe(`${name}: false`);
    }
    // Only in a SQLite file can we also grep the stored state: the signing secret is stored (to verify), the key is not.
    if (kind === "sqlite") {
      const raw = ["access.db", "access.db-wal"]
        .filter((f) => existsSync(join(dir, f)))
        .map((f) => readFileSync(join(dir, f)).toString("latin1"))
        .join("");
      expect(raw.includes(key)).toBe(false);
      expect(raw.includes(secret)).toBe(true);
    }
  }, 120_000);

  test("two server processes on one database admit exactly 100 of 150 concurrent anonymous requests", async () => {
    const { location, kind } = get();
    if (!location) return;
    await get().reset();
    const dir = tempDir("unirank-access-two-");
    dirs.push(dir);
    const db = kind === "sqlite" ? join(dir, "shared.db") : location;
    if (kind === "sqlite") expect((await cli(["migrate", "--db", db], dir)).code).toBe(0);
    const a = await serve(["--db", db, "--log-dir", join(dir, "a")], dir);
    const b = await serve(["--db", db, "--log-dir", join(dir, "b")], dir);
    try {
      const statuses = await Promise.all(
        Array.from({ length: 150 }, async (_, i) => {
          const r = await fetch(`${i % 2 ? a.url : b.url}/api/v1/universities?limit=1`);
          await r.arrayBuffer();
          return r.status;
        }),
      );
      expect(statuses.filter((s) => s === 200).length).toBe(100);
      expect(statuses.filter((s) => s === 429).length).toBe(50);
    } finally {
      await stop(a);
      await stop(b);
    }
  }, 120_000);
});
