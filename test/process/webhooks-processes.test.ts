import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { verify as octokitVerify } from "@octokit/webhooks-methods";
import { addReceiver, importRecords, listDeliveries, migrate } from "../../lib/index.ts";
import { openSqlite } from "../../src/db/open.ts";
import { tempDir } from "../support/databases.ts";

/** Real `unirank` processes: `serve` delivering in the background and resuming after a kill; the CLI commands. */

const CLI = join(import.meta.dir, "../..", "src", "cli.ts");
let dir = "";
beforeAll(() => {
  dir = tempDir("unirank-hooks-");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const env = () => ({ ...process.env, UNIRANK_LOG_DIR: join(dir, "logs") });

/** Runs the CLI without blocking this process (the receiver under test lives here). */
async function cli(args: string[]) {
  const p = Bun.spawn(["bun", CLI, ...args], { env: env(), stdout: "pipe", stderr: "pipe" });
  const [out, err] = await Promise.all([
    new Response(p.stdout as ReadableStream).text(),
    new Response(p.stderr as ReadableStream).text(),
  ]);
  await p.exited;
  return { code: p.exitCode, out, err };
}

/** A loopback receiver whose answer can be switched: hang (never answer) or 200. */
function switchableReceiver(secret: string) {
  let mode: "hang" | "ok" = "hang";
  const received: { id: string; valid: Promise<boolean>; mode: string }[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 0,
    async fetch(req) {
      const body = await req.text();
      received.push({
        id: req.headers.get("x-webhook-delivery") ?? "",
        valid: octokitVerify(secret, body, req.headers.get("x-webhook-signature") ?? ""),
        mode,
      });
      if (mode === "hang") return new Promise<Response>(() => {});
      return new Response("ok");
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}/hook`,
    received,
    setMode: (m: "hang" | "ok") => {
      mode = m;
    },
    stop: () => server.stop(true),
  };
}

async function until(check: () => boolean | Promise<boolean>, what: string, ms = 30_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(50);
  }
}

const scans = (n: number, prefix: string) => ({
  name: "t.ndjson",
  records: [
    { type: "university", domain: "proc.example", name: "Process University", country: "SE" },
    ...Array.from({ length: n }, (_, i) => ({
      type: "scan",
      source_id: `${prefix}${i}`,
      domain: "proc.example",
      status: "completed",
      completed_at: "2026-03-01T12:00:00+00:00",
      overall_score: 40 + i,
    })),
  ],
});

describe("webhooks (processes)", () => {
  test("a killed server's undelivered deliveries are sent after a restart", async () => {
    const db = join(dir, "restart.db");
    const rx = switchableReceiver("restart-secret");
    try {
      const opened = openSqlite(db);
      await migrate(opened.db);
      await addReceiver(opened.db, { url: rx.url, secret: "restart-secret" });
      await importRecords(opened.db, [scans(3, "k")]);
      const ids = (await listDeliveries(opened.db)).map((d) => d.uuid).sort();
      await opened.close();
      expect(ids).toHaveLength(3);

      const args = ["serve", "--db", db, "--port", "0", "--allow-private-webhooks", "--webhook-timeout", "1"];
      const first = Bun.spawn(["bun", CLI, ...args], { env: env(), stdout: "ignore", stderr: "ignore" });
      // Two are in flight (the per-receiver limit), hanging; the third waits its turn. Then the server dies.
      await until(() => rx.received.length >= 2, "the first server to send");
      first.kill("SIGKILL");
      await first.exited;
      const beforeRestart = rx.received.length;
      expect(beforeRestart).toBe(2);

      rx.setMode("ok");
      const second = Bun.spawn(["bun", CLI, ...args], { env: env(), stdout: "ignore", stderr: "ignore" });
      try {
        await until(async () => {
          const o = openSqlite(db, { readonly: true });
          try {
            const rows = await listDeliveries(o.db);
            return rows.every((d) => d.status === "delivered");
          } finally {
            await o.close();
          }
        }, "every delivery to be delivered after the restart");
      } finally {
        second.kill("SIGTERM");
        await second.exited;
      }
      expect(second.exitCode).toBe(0);
      const okIds = rx.received.filter((r) => r.mode === "ok").map((r) => r.id);
      expect([...new Set(okIds)].sort()).toEqual(ids);
      // The two interrupted ones were sent again with the same delivery id.
      for (const r of rx.received.slice(0, beforeRestart)) expect(okIds).toContain(r.id);
      expect((await Promise.all(rx.received.map((r) => r.valid))).every(Boolean)).toBe(true);
    } finally {
      rx.stop();
    }
  }, 120_000);

  test("CLI: add (private refused unless allowed), list, deliver, deliveries, attempts, redeliver, remove", async () => {
    const db = join(dir, "cli.db");
    const rx = switchableReceiver("cli-secret");
    rx.setMode("ok");
    try {
      const refused = await cli(["webhooks", "add", rx.url, "--secret", "cli-secret", "--db", db]);
      expect(refused.code).toBe(1);
      expect(refused.err).toMatch(/refused: 127\.0\.0\.1 resolves to 127\.0\.0\.1/);
      const added = await cli([
        "webhooks",
        "add",
        rx.url,
        "--secret",
        "cli-secret",
        "--allow-private-webhooks",
        "--db",
        db,
      ]);
      expect(added.code, added.err).toBe(0);
      expect(added.out).toContain(`added webhook receiver 1: ${rx.url}`);
      const list = await cli(["webhooks", "list", "--db", db]);
      expect(list.out).toMatch(/1\s+yes\s+http:\/\/127\.0\.0\.1:\d+\/hook\s+cli-…/);
      expect(list.out).not.toContain("cli-secret");

      const file = join(dir, "cli.ndjson");
      await Bun.write(
        file,
        scans(2, "c")
          .records.map((r) => JSON.stringify(r))
          .join("\n"),
      );
      const imported = await cli(["import", file, "--db", db]);
      expect(imported.code, imported.err).toBe(0);
      expect(imported.out).toContain("webhook deliveries recorded: 2");

      // Without the flag, `deliver` refuses the loopback receiver: nothing is received, both fail.
      const strict = await cli(["webhooks", "deliver", "--db", db]);
      expect(strict.out).toContain("delivered 0, will retry 0, failed 2");
      expect(rx.received).toHaveLength(0);
      const failed = await cli(["webhooks", "deliveries", "--failed", "--json", "--db", db]);
      const rows = failed.out
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l));
      expect(rows).toHaveLength(2);
      expect(rows[0].last_error).toMatch(/^refused/);

      for (const r of rows)
        expect((await cli(["webhooks", "redeliver", String(r.id), "--db", db])).code).toBe(0);
      const sent = await cli(["webhooks", "deliver", "--allow-private-webhooks", "--db", db]);
      expect(sent.out).toContain("delivered 2, will retry 0, failed 0");
      expect(rx.received).toHaveLength(2);
      expect(new Set(rx.received.map((r) => r.id))).toEqual(new Set(rows.map((r) => r.uuid)));

      const attempts = await cli(["webhooks", "attempts", rows[0].uuid, "--db", db]);
      expect(attempts.out).toMatch(/1\s+\S+\s+-\s+\d+ ms\s+refused/);
      expect(attempts.out).toMatch(/2\s+\S+\s+200\s+\d+ ms/);
      expect((await cli(["webhooks", "deliveries", "--failed", "--db", db])).out.trim()).toBe(
        "no deliveries",
      );

      expect((await cli(["webhooks", "remove", "1", "--db", db])).out).toContain(
        "removed webhook receiver 1",
      );
      expect((await cli(["webhooks", "list", "--db", db])).out.trim()).toBe("no webhook receivers");
      expect((await cli(["webhooks", "remove", "1", "--db", db])).code).toBe(1);
      for (const sub of ["add", "list", "remove", "deliveries", "redeliver", "deliver", "attempts"]) {
        expect((await cli(["webhooks", sub, "--help"])).out).toContain("Usage: unirank webhooks");
      }
      expect((await cli(["import", "--help"])).out).toContain("--skip-invalid");
    } finally {
      rx.stop();
    }
  }, 120_000);
});
