import { afterAll, beforeAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { EVIDENCE_MAX_CHARS, migrate, writeRecords } from "../../lib/index.ts";
import { type OpenedDatabase, openDatabase } from "../../src/db/open.ts";
import { tempDir } from "../support/databases.ts";
import { page, routes, type ScanWeb, serveScanArgs, startScanWeb } from "../support/scan-web.ts";
import { type ServeProcess, startServe } from "../support/serve-process.ts";

/**
 * `serve --scan-every` stores what `unirank scan` stores: a site whose evidence is larger than the writer takes
 * (a home page of 1,000 video links, each kept as evidence) is scanned and stored as completed, its evidence cut
 * to fit, through the same outcome recorder as the command.
 */

let web: ScanWeb;
let dir: string;
let opened: OpenedDatabase;
let serve: ServeProcess | undefined;

const LINKS = 1000;
const videoLink = (i: number) =>
  `https://www.youtube.com/watch?v=${String(i).padStart(4, "0")}${"x".repeat(60)}`;

beforeAll(async () => {
  const links = Array.from({ length: LINKS }, (_, i) => `<a href="${videoLink(i)}">video ${i}</a>`).join(
    "\n",
  );
  web = await startScanWeb([
    {
      domain: "many.test",
      https: routes({
        "/": (_, res) =>
          page(res, `<html lang="en"><head><title>Many videos</title></head><body>${links}</body></html>`),
      }),
    },
  ]);
  dir = tempDir("unirank-serve-evidence-");
  opened = await openDatabase(join(dir, "scan.db"));
  await migrate(opened.db);
  await writeRecords(opened.db, [{ type: "university", domain: "many.test", name: "Many", country: "NL" }]);
}, 60_000);

afterAll(async () => {
  await serve?.stop();
  await opened?.close();
  await web?.close();
  rmSync(dir, { recursive: true, force: true });
});

test("a scan whose evidence exceeds the writer's cap is stored by serve's scheduler, its evidence cut to fit", async () => {
  serve = await startServe([
    "--db",
    join(dir, "scan.db"),
    "--log-dir",
    join(dir, "logs"),
    "--scan-every",
    "1h",
    ...serveScanArgs(web),
  ]);
  const deadline = Date.now() + 60_000;
  let scan: { id: number; status: string } | undefined;
  while (Date.now() < deadline) {
    const row = await opened.db
      .selectFrom("scans")
      .select(["id", "status"])
      .where("source_id", "like", "scheduler:%")
      .where("status", "!=", "running")
      .executeTakeFirst();
    if (row) {
      scan = { id: Number(row.id), status: row.status };
      break;
    }
    if (serve.log().includes('"scan not stored"')) break;
    await Bun.sleep(100);
  }
  expect(serve.log()).not.toContain('"scan not stored"');
  expect(scan?.status).toBe("completed");
  const body = (await (await fetch(`${serve.url}/api/v2/scans/${scan?.id}`)).json()) as {
    data: { status: string; evidence: { observations: { pages: { url: string; links: string[] }[] } } };
  };
  expect(body.data.status).toBe("completed");
  const evidence = body.data.evidence;
  expect(JSON.stringify(evidence).length).toBeLessThanOrEqual(EVIDENCE_MAX_CHARS);
  // The home page was seen with every link; the evidence keeps its first 50.
  expect(evidence.observations.pages[0]?.links).toEqual(Array.from({ length: 50 }, (_, i) => videoLink(i)));
}, 90_000);
