import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { readGeneration } from "../../lib/db/generation.ts";
import { addReceiver, migrate } from "../../lib/index.ts";
import { openSqlite } from "../../src/db/open.ts";
import { tempDir } from "../support/databases.ts";
import { writeScanFile } from "../support/scan-file.ts";

/** `unirank import` as a real process: memory bound on a large file, and nothing left behind by a kill. */

const CLI = join(import.meta.dir, "../..", "src", "cli.ts");
const UNIVERSITIES = 20_000;
const SCANS_PER_UNIVERSITY = 10; // 200,000 scans

let dir = "";
let file = "";

beforeAll(async () => {
  dir = tempDir("unirank-import-");
  file = join(dir, "scans.ndjson");
  await writeScanFile(file, UNIVERSITIES, SCANS_PER_UNIVERSITY);
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Peak resident memory of a live process (Linux `VmHWM`), in MB; 0 when unreadable. */
function peakRssMb(pid: number): number {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

function startImport(db: string, extra: string[] = []) {
  const proc = Bun.spawn(["bun", CLI, "import", file, "--db", db, ...extra], {
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, UNIRANK_LOG_DIR: join(dir, "logs") },
  });
  let stderr = "";
  const decoder = new TextDecoder();
  const reading = (async () => {
    for await (const chunk of proc.stderr as unknown as AsyncIterable<Uint8Array>)
      stderr += decoder.decode(chunk);
  })();
  return { proc, stderr: () => stderr, reading };
}

async function newDb(name: string, receiver = true): Promise<string> {
  const path = join(dir, name);
  const opened = openSqlite(path);
  await migrate(opened.db);
  if (receiver) await addReceiver(opened.db, { url: "http://127.0.0.1:9/hook", secret: "s" });
  await opened.close();
  return path;
}

async function counts(path: string) {
  const opened = openSqlite(path);
  try {
    const n = async (t: "universities" | "scans" | "webhook_deliveries" | "latest_scans") =>
      Number(
        (
          await opened.db
            .selectFrom(t)
            .select((eb) => eb.fn.countAll().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      );
    return {
      universities: await n("universities"),
      scans: await n("scans"),
      deliveries: await n("webhook_deliveries"),
      latest: await n("latest_scans"),
      generation: await readGeneration(opened.db),
    };
  } finally {
    await opened.close();
  }
}

async function waitForRecords(run: ReturnType<typeof startImport>, min: number) {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const seen = [...run.stderr().matchAll(/([\d,]+) records/g)].map((m) => Number(m[1]?.replace(/,/g, "")));
    if (seen.some((n) => n >= min)) return;
    if (Date.now() > deadline || run.proc.exitCode !== null) throw new Error(`no progress: ${run.stderr()}`);
    await Bun.sleep(50);
  }
}

describe("unirank import (processes)", () => {
  test("a 200,000-scan file imports, every completed scan with its delivery (peak RSS: see bench)", async () => {
    const db = await newDb("large.db");
    const run = startImport(db);
    let peak = 0;
    while (run.proc.exitCode === null) {
      peak = Math.max(peak, peakRssMb(run.proc.pid));
      await Bun.sleep(100);
    }
    await run.reading;
    const stdout = await new Response(run.proc.stdout as ReadableStream).text();
    expect(run.proc.exitCode, run.stderr()).toBe(0);
    expect(stdout).toContain("scans:        200,000 inserted, 0 updated, 0 unchanged");
    expect(stdout).toContain(`universities: ${UNIVERSITIES.toLocaleString("en-US")} inserted`);
    console.log(`[import] 200,000 scans: ${stdout.split("\n")[0]}; peak RSS ${peak.toFixed(0)} MB`);
    expect(peak).toBeGreaterThan(0);
    const c = await counts(db);
    expect(c).toMatchObject({
      universities: UNIVERSITIES,
      scans: 200_000,
      deliveries: 200_000,
      latest: UNIVERSITIES,
    });
    // A re-run changes nothing and records no delivery.
    const again = startImport(db);
    await again.proc.exited;
    const out = await new Response(again.proc.stdout as ReadableStream).text();
    expect(out).toContain("scans:        0 inserted, 0 updated, 200,000 unchanged");
    expect(await counts(db)).toEqual(c);
  }, 300_000);

  test("killing the import halfway leaves the database as it was; Ctrl-C rolls back too", async () => {
    const db = await newDb("killed.db");
    const before = await counts(db);
    const killed = startImport(db);
    await waitForRecords(killed, 20_000);
    killed.proc.kill("SIGKILL");
    await killed.proc.exited;
    expect(killed.proc.signalCode).toBe("SIGKILL");
    expect(await counts(db)).toEqual(before);

    const interrupted = startImport(db);
    await waitForRecords(interrupted, 20_000);
    interrupted.proc.kill("SIGINT");
    await interrupted.proc.exited;
    await interrupted.reading;
    expect(interrupted.proc.exitCode).toBe(130);
    expect(interrupted.stderr()).toContain("interrupted; nothing was written");
    expect(await counts(db)).toEqual(before);
  }, 300_000);
});
