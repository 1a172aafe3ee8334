import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { migrate } from "../../lib/migrations/migrate.ts";
import { addReceiver } from "../../lib/webhooks/receivers.ts";
import { writeRecords } from "../../lib/write/write-records.ts";
import { openDatabase } from "../../src/db/open.ts";
import { type ScanWeb, scanCliArgs, startScanWeb } from "../support/scan-web.ts";
import { FIXTURE_UNIVERSITIES } from "../support/scan-web-sites.ts";
import { runCli, type ServeProcess, startServe } from "../support/serve-process.ts";

/** `unirank scan --all` over the fixture web: scans written, served by v1/v2, one webhook per completed scan. */

let web: ScanWeb;
let dir: string;
let db: string;
let serve: ServeProcess | undefined;
const hooks: { event: string; scan_id: number; domain: string }[] = [];
const receiver = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(req) {
    const body = (await req.json()) as { event: string; data: { scan_id: number; domain: string } };
    hooks.push({ event: body.event, scan_id: body.data.scan_id, domain: body.data.domain });
    return new Response("ok");
  },
});

const COMPLETED = FIXTURE_UNIVERSITIES.map((s) => s.domain).filter(
  (d) => d !== "loop.test" && d !== "tarpit.test",
);

beforeAll(async () => {
  web = await startScanWeb(FIXTURE_UNIVERSITIES);
  dir = mkdtempSync(join(tmpdir(), "unirank-scan-cli-"));
  db = join(dir, "scan.db");
  const opened = await openDatabase(db);
  await migrate(opened.db);
  await writeRecords(
    opened.db,
    FIXTURE_UNIVERSITIES.map((s) => ({
      type: "university" as const,
      domain: s.domain,
      name: `U ${s.domain}`,
      country: "NL",
    })),
  );
  await addReceiver(opened.db, { url: `http://127.0.0.1:${receiver.port}/hook`, secret: "s3cret" });
  await opened.close();
}, 60_000);

afterAll(async () => {
  await serve?.stop();
  receiver.stop(true);
  await web.close();
  rmSync(dir, { recursive: true, force: true });
});

const scanArgs = () => ["--db", db, ...scanCliArgs(web), "--timeout", "3"];

describe("unirank scan", () => {
  test("bad use is refused with a message and exit code 1", async () => {
    const none = await runCli(["scan", "--db", db]);
    expect(none.code).toBe(1);
    expect(none.err).toContain("name domains to scan, or use --all, --stale or --country");
    const unknown = await runCli(["scan", "nowhere.test", ...scanArgs()]);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain("not a stored university: nowhere.test (import it first)");
    const badResolver = await runCli(["scan", "--all", "--resolver", "x:0", "--db", db]);
    expect(badResolver.code).toBe(1);
    expect(badResolver.err).toContain("not a resolver HOST:PORT: x:0");
  }, 120_000);

  test("--all writes every scan, fails the broken ones with reasons, exit code 3", async () => {
    const r = await runCli(["scan", "--all", ...scanArgs()]);
    expect(r.code).toBe(3);
    expect(r.out).toContain(`scanned 11 of 11 universities`);
    expect(r.out).toContain("9 completed, 2 failed");
    expect(r.out).toContain(
      "  loop.test: home page: more than 5 redirects from https://loop.test/ (last to /b)",
    );
    expect(r.out).toContain("  tarpit.test: home page: https://tarpit.test/ did not answer within 3 s");

    const opened = await openDatabase(db);
    const rows = await opened.db
      .selectFrom("scans as s")
      .innerJoin("universities as u", "u.id", "s.university_id")
      .select(["u.domain", "s.status", "s.tech_ssl_score", "s.overall_score", "s.source_id"])
      .orderBy("u.domain")
      .execute();
    await opened.close();
    expect(rows).toHaveLength(11);
    expect(rows.filter((x) => x.status === "failed").map((x) => x.domain)).toEqual([
      "loop.test",
      "tarpit.test",
    ]);
    expect(rows.filter((x) => x.status === "completed").map((x) => x.domain)).toEqual([...COMPLETED].sort());
    const well = rows.find((x) => x.domain === "well.test");
    expect(well).toMatchObject({ tech_ssl_score: 100, overall_score: 76.1 });
    expect(well?.source_id).toMatch(
      /^unirank-scan:well\.test:\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00:[0-9a-f]{8}$/,
    );
    expect(rows.find((x) => x.domain === "expired.test")?.tech_ssl_score).toBe(20); // browsers refuse it
  }, 120_000);

  test("the scans are served by v1 and v2 with their evidence, and each completed scan fires one webhook", async () => {
    serve = await startServe(["--db", db, "--allow-private-webhooks", "--rate-limit", "0"]);
    const list = (await (await fetch(`${serve.url}/api/v1/universities?search=well.test`)).json()) as {
      data: { id: number; domain: string }[];
    };
    const wellId = list.data.find((u) => u.domain === "well.test")?.id;
    const scores = (await (await fetch(`${serve.url}/api/v1/universities/${wellId}/scores`)).json()) as {
      data: Record<string, number | null>;
    };
    expect(scores.data).toMatchObject({
      tech_ssl_score: 100,
      overall_score: 76.1,
      tech_speed_mobile_score: null,
    });

    const deadline = Date.now() + 30_000;
    while (hooks.length < COMPLETED.length && Date.now() < deadline) await Bun.sleep(100);
    expect(hooks.map((h) => h.event)).toEqual(COMPLETED.map(() => "scan.completed"));
    expect(hooks.map((h) => h.domain).sort()).toEqual([...COMPLETED].sort());

    const wellHook = hooks.find((h) => h.domain === "well.test");
    const scan = (await (await fetch(`${serve.url}/api/v2/scans/${wellHook?.scan_id}`)).json()) as {
      data: {
        status: string;
        evidence: { checks: { id: string; points: number }[]; unmeasured: Record<string, string> };
      };
    };
    expect(scan.data.status).toBe("completed");
    expect(scan.data.evidence.checks.find((c) => c.id === "hsts.present")?.points).toBe(40);
    expect(scan.data.evidence.unmeasured.tech_speed_mobile_score).toBe(
      "no Chromium configured (--chromium or CHROMIUM_PATH)",
    );

    const exported = (await (await fetch(`${serve.url}/api/v1/universities/${wellId}/export`)).json()) as {
      data: { recommendations: { category: string; message: string }[] };
    };
    // The failing checks first, most points lost first (ties by check id), each sub-score once.
    expect(exported.data.recommendations.map((r) => r.category)).toEqual([
      "webo_size_score",
      "i18n_score",
      "webo_openness_score",
      "research_profiles_score",
    ]);
    expect(exported.data.recommendations[0]?.message).toBe(
      "Pages listed in the sitemap: 12 URLs listed. List every public page in the sitemap.",
    );
  }, 120_000);

  test("unirank rescore brings a scan stored under an older rubric back to what its evidence gives, sending no webhook", async () => {
    const wellId = hooks.find((h) => h.domain === "well.test")?.scan_id;
    const v2 = async () =>
      (
        (await (await fetch(`${serve?.url}/api/v2/scans/${wellId}`)).json()) as {
          data: { profile: string; rubric_version: number | null; scores: Record<string, number | null> };
        }
      ).data;
    const fresh = await v2();
    expect([fresh.profile, fresh.rubric_version]).toEqual(["site", 2]);
    // The scan as an older rubric scored it, written by hand as an operator's SQL would.
    const opened = await openDatabase(db);
    await sql`update scans set rubric_version = 1, tech_ssl_score = 50, overall_score = 99 where id = ${wellId}`.execute(
      opened.db,
    );
    await opened.close();
    expect((await v2()).scores).toMatchObject({ tech_ssl_score: 50, overall_score: 99 });
    const hooksBefore = hooks.length;

    const none = await runCli(["rescore", "--db", db]);
    expect([none.code, none.err]).toEqual([
      1,
      "unirank: name domains, or use --all or --before VERSION (one of them)\n",
    ]);
    const r = await runCli(["rescore", "--before", "2", "--db", db]);
    expect([r.code, r.out]).toEqual([
      0,
      "looked at 1 scan with evidence under rubric version 2: 1 re-scored, 0 unchanged, 0 without observations (left as they were)\n",
    ]);
    const after = await v2();
    expect(after.scores).toEqual(fresh.scores);
    expect(after.rubric_version).toBe(2);
    const ranked = (await (await fetch(`${serve?.url}/api/v2/leaderboard/overall?limit=1`)).json()) as {
      data: { university: { domain: string }; score: number }[];
    };
    expect(ranked.data[0]).toMatchObject({ university: { domain: "well.test" }, score: 76.1 });
    await Bun.sleep(1500);
    expect(hooks.length).toBe(hooksBefore);
    const again = await runCli(["rescore", "--all", "--db", db]);
    expect(again.out).toContain(": 0 re-scored, 9 unchanged, 0 without observations");
  }, 120_000);
});
