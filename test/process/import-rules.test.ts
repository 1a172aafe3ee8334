import { afterAll, beforeEach, expect, test } from "bun:test";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import {
  formatIssue,
  type ImportSource,
  IngestRejectedError,
  importRecords,
  roundScore,
  writeRecords,
} from "../../lib/index.ts";
import { importFiles } from "../../lib/node/index.ts";
import { describeEachDatabase, tempDir } from "../support/databases.ts";
import { runCli } from "../support/serve-process.ts";

const nd = (name: string, lines: unknown[]): ImportSource => ({
  name,
  format: "ndjson",
  content: [lines.map((l) => JSON.stringify(l)).join("\n")],
});
const uni = (domain: string, name = `University ${domain}`) => ({
  type: "university",
  domain,
  name,
  country: "DE",
});
const scan = (source_id: string, domain: string, extra: Record<string, unknown> = {}) => ({
  type: "scan",
  source_id,
  domain,
  status: "completed",
  completed_at: "2026-03-01T12:00:00+00:00",
  overall_score: 50,
  ...extra,
});

const dir = tempDir("unirank-import-rules-");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("roundScore: one decimal of the number as written, half away from zero", () => {
  expect([33.333333, 72.45, 72.44, 0.05, 0.04, 5e-324, -0, 100, 99.95, 1.45, 12.25].map(roundScore)).toEqual([
    33.3, 72.5, 72.4, 0.1, 0, 0, 0, 100, 100, 1.5, 12.3,
  ]);
  expect(Object.is(roundScore(-0), 0)).toBe(true);
});

test("unirank import of a truncated .csv.gz and .ndjson.gz: file:line, the summary, exit 1, no stack", async () => {
  const rows = Array.from({ length: 3000 }, (_, i) => `university,u${i}.example,University ${i},DE`);
  const files = {
    "cli-cut.csv.gz": gzipSync(`type,domain,name,country\n${rows.join("\n")}\n`).subarray(0, 3000),
    "cli-cut.ndjson.gz": gzipSync(
      rows.map((r) => JSON.stringify(uni(r.split(",")[1] as string))).join("\n"),
    ).subarray(0, 3000),
  };
  for (const [name, bytes] of Object.entries(files)) {
    const path = join(dir, name);
    writeFileSync(path, bytes);
    const proc = Bun.spawn(
      [
        "bun",
        join(import.meta.dir, "../..", "src", "cli.ts"),
        "import",
        path,
        "--db",
        join(dir, `${name}.db`),
      ],
      { stdout: "pipe", stderr: "pipe", env: { ...process.env, UNIRANK_LOG_DIR: join(dir, "logs") } },
    );
    const [stdout, stderr, code] = await Promise.all([
      new Response(proc.stdout).text(),
      new Response(proc.stderr).text(),
      proc.exited,
    ]);
    expect(code).toBe(1);
    expect(stderr).toMatch(
      new RegExp(`^${path.replace(/[.]/g, "\\.")}:\\d+: the file cannot be read from this line on`, "m"),
    );
    expect(stderr).not.toMatch(/^\s+at /m);
    expect(stdout).toMatch(/^nothing imported: /m);
  }
}, 60_000);

/** 12,000 universities as a .csv.gz with one bit flipped mid-stream: it inflates to garbled rows, and only the
 * CRC at the end says so. */
function flippedGzip(): Buffer {
  const rows = Array.from({ length: 12000 }, (_, i) => `university,u-${i}.example,University ${i},DE`);
  const gz = gzipSync(`type,domain,name,country\n${rows.join("\n")}\n`);
  const at = Math.floor(gz.length / 2);
  gz.writeUInt8(gz.readUInt8(at) ^ 0x01, at);
  return gz;
}

test("unirank import --skip-invalid of a .csv.gz with one flipped byte: exit 1, nothing written, the reason named", async () => {
  const path = join(dir, "flipped.csv.gz");
  writeFileSync(path, flippedGzip());
  const db = join(dir, "flipped.db");
  const {
    code,
    out: stdout,
    err: stderr,
  } = await runCli(["import", path, "--skip-invalid", "--db", db, "--no-events"], {
    UNIRANK_LOG_DIR: join(dir, "logs"),
  });
  expect(code).toBe(1);
  expect(stderr).toMatch(
    /flipped\.csv\.gz:\d+: the file cannot be read from this line on \(incorrect data check\)/,
  );
  expect(stderr).toContain("cannot be read to its end; nothing was written, --skip-invalid or not");
  expect(stdout).toMatch(/^nothing imported: /m);
  const check = new (await import("bun:sqlite")).Database(db, { readonly: true });
  expect(check.query("select count(*) as n from universities").get()).toEqual({ n: 0 });
  check.close();
}, 60_000);

describeEachDatabase("import rules", (get) => {
  beforeEach(async () => {
    await get().reset();
  });

  test("progress counts a file's own bytes: a .gz never passes its size, and ends at it", async () => {
    const { db } = get();
    const lines = Array.from({ length: 12_000 }, (_, i) => JSON.stringify(uni(`progress-${i}.example`)));
    const text = `${lines.join("\n")}\n`;
    for (const [name, bytes] of [
      ["progress.ndjson", Buffer.from(text)],
      ["progress.ndjson.gz", gzipSync(text)],
    ] as const) {
      await get().reset();
      const path = join(dir, name);
      writeFileSync(path, bytes);
      const seen: number[] = [];
      const r = await importFiles(db, [path], { events: false, onProgress: (p) => seen.push(p.bytes) });
      expect(r.committed).toBe(true);
      expect(r.universities.inserted).toBe(12_000);
      // 12,000 records: a report every 5,000 and one at the end.
      expect(seen.length).toBeGreaterThanOrEqual(3);
      for (const b of seen) expect(b).toBeLessThanOrEqual(bytes.byteLength);
      expect(seen.at(-1)).toBe(bytes.byteLength);
    }
  }, 60_000);

  test("a scan before its university is refused whatever the batch size; after it, accepted", async () => {
    const { db } = get();
    const filler = Array.from({ length: 499 }, (_, i) => scan(`f${i}`, "first.example"));
    for (const batchSize of [1, 500]) {
      await get().reset();
      const early = await importRecords(
        db,
        [
          nd("early.ndjson", [
            uni("first.example"),
            scan("s1", "late.example"),
            ...filler,
            uni("late.example"),
          ]),
        ],
        { batchSize },
      );
      expect(early.committed).toBe(false);
      expect(early.issues.map(formatIssue)).toEqual([
        "early.ndjson:2: scan for domain late.example, which is neither stored nor imported before this line",
      ]);
      const adjacent = await importRecords(
        db,
        [nd("adjacent.ndjson", [scan("s1", "next.example"), uni("next.example")])],
        {
          batchSize,
        },
      );
      expect(adjacent.issues.map(formatIssue)).toEqual([
        "adjacent.ndjson:1: scan for domain next.example, which is neither stored nor imported before this line",
      ]);
      const inOrder = await importRecords(
        db,
        [
          nd("order.ndjson", [
            uni("first.example"),
            ...filler,
            uni("late.example"),
            scan("s1", "late.example"),
          ]),
        ],
        { batchSize },
      );
      expect(inOrder.issues).toEqual([]);
      expect(inOrder.scans.inserted).toBe(500);
    }
    // Stored before the import: any line will do; an earlier file counts as earlier lines.
    const later = await importRecords(db, [
      nd("a.ndjson", [scan("s2", "late.example")]),
      nd("b.ndjson", [uni("third.example")]),
      nd("c.ndjson", [scan("s3", "third.example")]),
    ]);
    expect(later.issues).toEqual([]);
    expect(later.scans.inserted).toBe(2);
  }, 60_000);

  test("a truncated or corrupt .gz gives file:line and a summary in every format, never a stack", async () => {
    const { db } = get();
    const rows = Array.from({ length: 3000 }, (_, i) => `university,u${i}.example,University ${i},DE`);
    const csv = gzipSync(`type,domain,name,country\n${rows.join("\n")}\n`);
    const ndjson = gzipSync(
      `${rows.map((r) => JSON.stringify(uni(r.split(",")[1] as string))).join("\n")}\n`,
    );
    const files = {
      "cut.csv.gz": csv.subarray(0, 3000),
      "cut.ndjson.gz": ndjson.subarray(0, 3000),
      "noise.csv.gz": Buffer.concat([csv.subarray(0, 10), Buffer.alloc(4000, 0x5a), csv.subarray(4010)]),
      "noise.ndjson.gz": Buffer.concat([
        ndjson.subarray(0, 10),
        Buffer.alloc(4000, 0x5a),
        ndjson.subarray(4010),
      ]),
    };
    for (const [name, bytes] of Object.entries(files)) {
      const path = join(dir, name);
      writeFileSync(path, bytes);
      const r = await importFiles(db, [path]);
      expect(r.committed).toBe(false);
      expect(r.issues).toHaveLength(1);
      const [issue] = r.issues;
      expect(issue?.source).toBe(path);
      expect(issue?.line).toBeGreaterThan(0);
      expect(issue?.message).toMatch(
        /^the file cannot be read from this line on \(.+\): is it truncated or corrupt\?$/,
      );
      expect(await db.selectFrom("universities").select("id").execute()).toEqual([]);
    }
  });

  test("data read before a decompression error is never written, --skip-invalid or not", async () => {
    const { db } = get();
    const path = join(dir, "flipped-lib.csv.gz");
    writeFileSync(path, flippedGzip());
    for (const skipInvalid of [false, true]) {
      const r = await importFiles(db, [path], { skipInvalid, events: false });
      expect(r.committed).toBe(false);
      expect(r.universities.inserted).toBe(0);
      expect(r.issues.at(-1)?.message).toMatch(
        /^the file cannot be read from this line on \(incorrect data check\)/,
      );
      expect(await db.selectFrom("universities").select("id").execute()).toEqual([]);
    }
  }, 60_000);

  test("one bound rule on a score as written: above 100 or below 0 by any amount is refused, in NDJSON and CSV", async () => {
    const { db } = get();
    const above = [
      "100.000000000000000000001",
      "100.0000000000001",
      "100.00000000000001",
      "100.05",
      "1e2000",
    ];
    const within = [
      "100",
      "100.0",
      "100.000000000000000000000",
      "1e2",
      "1.00E+2",
      "0.000000000000000000001",
      "0",
      "0.0",
    ];
    const below = ["-0.000000000000000000001", "-1e-400", "-5"];
    const line = (id: string, score: string) =>
      `{"type":"scan","source_id":"${id}","domain":"b.example","status":"completed","completed_at":"2026-03-01T12:00:00+00:00","overall_score":${score}}`;
    const all = [...above, ...within, ...below];
    const r = await importRecords(
      db,
      [
        { name: "u.ndjson", format: "ndjson", content: [JSON.stringify(uni("b.example"))] },
        { name: "b.ndjson", format: "ndjson", content: [all.map((s, i) => line(`j${i}`, s)).join("\n")] },
        {
          name: "b.csv",
          format: "csv",
          content: [
            `type,domain,source_id,status,completed_at,overall_score\n${[...above, ...within]
              .filter((s) => /^[\d.]+$/.test(s))
              .map((s, i) => `scan,b.example,c${i},completed,2026-03-01 12:00:00,${s}`)
              .join("\n")}\n`,
          ],
        },
      ],
      { skipInvalid: true },
    );
    const refused = r.issues.map(formatIssue);
    const expected = [
      ...above.map((s, i) => `b.ndjson:${i + 1}: overall_score ${s} is outside 0..100`),
      ...below.map(
        (s, i) => `b.ndjson:${above.length + within.length + i + 1}: overall_score ${s} is outside 0..100`,
      ),
      ...above
        .filter((s) => /^[\d.]+$/.test(s))
        .map((s, i) => `b.csv:${i + 2}: overall_score ${s} is outside 0..100`),
    ];
    expect(refused.sort()).toEqual(expected.sort());
    const stored = await db.selectFrom("scans").select(["overall_score"]).execute();
    expect(new Set(stored.map((s) => Number(s.overall_score)))).toEqual(new Set([100, 0]));
  });

  test("scores: one decimal on every write path; CSV takes plain decimals only", async () => {
    const { db } = get();
    const precise = {
      overall_score: 33.333333,
      tech_ssl_score: 5e-324,
      tech_seo_score: -0,
      tech_hsts_score: 72.45,
    };
    await importRecords(db, [nd("p.ndjson", [uni("p.example"), scan("p1", "p.example", precise)])]);
    await writeRecords(db, [scan("p2", "p.example", precise) as never]);
    const r = await importRecords(db, [
      {
        name: "p.csv",
        format: "csv",
        content: [
          "type,domain,source_id,status,completed_at,overall_score,tech_ssl_score\nscan,p.example,p3,completed,2026-03-01 12:00:00,33.35,0.04\n",
        ],
      },
    ]);
    expect(r.issues).toEqual([]);
    const stored = await db
      .selectFrom("scans")
      .select(["source_id", "overall_score", "tech_ssl_score", "tech_seo_score", "tech_hsts_score"])
      .orderBy("source_id")
      .execute();
    expect(stored.map((s) => ({ ...s }))).toEqual([
      { source_id: "p1", overall_score: 33.3, tech_ssl_score: 0, tech_seo_score: 0, tech_hsts_score: 72.5 },
      { source_id: "p2", overall_score: 33.3, tech_ssl_score: 0, tech_seo_score: 0, tech_hsts_score: 72.5 },
      {
        source_id: "p3",
        overall_score: 33.4,
        tech_ssl_score: 0,
        tech_seo_score: null,
        tech_hsts_score: null,
      },
    ]);
    // A re-run of the same precise values is the same scan: nothing changes; nor for a score stored before the
    // rule (written here by hand), which counts as its rounding.
    const again = await importRecords(db, [nd("p.ndjson", [scan("p1", "p.example", precise)])]);
    expect(again.scans).toEqual({ inserted: 0, updated: 0, unchanged: 1 });
    await db.updateTable("scans").set({ overall_score: 33.333333 }).where("source_id", "=", "p1").execute();
    const legacy = await importRecords(db, [nd("p.ndjson", [scan("p1", "p.example", precise)])]);
    expect(legacy.issues).toEqual([]);
    expect(legacy.scans).toEqual({ inserted: 0, updated: 0, unchanged: 1 });

    const cells = ["1e2", " 50", "50 ", "50.", ".5", "-0", "+5", "0x10", "5,5", "Infinity"];
    const bad = await importRecords(db, [
      {
        name: "bad.csv",
        format: "csv",
        content: [
          `type,domain,source_id,status,completed_at,overall_score\n${cells.map((c, i) => `scan,p.example,b${i},completed,2026-03-01 12:00:00,"${c}"`).join("\n")}\n`,
        ],
      },
    ]);
    expect(bad.issues.map(formatIssue)).toEqual(
      cells.map(
        (c, i) =>
          `bad.csv:${i + 2}: overall_score ${JSON.stringify(c)} is not a number (digits with an optional decimal point, as in 72.5)`,
      ),
    );
  });

  test("a NUL in a text field gets the same answer on every database", async () => {
    const { db } = get();
    const r = await importRecords(db, [
      nd("nul.ndjson", [
        uni("nul.example", "Null\u0000University"),
        uni("ok.example"),
        scan("x\u0000y", "ok.example"),
      ]),
    ]);
    expect(r.committed).toBe(false);
    expect(r.issues.map(formatIssue)).toEqual([
      "nul.ndjson:1: name contains a NUL character (U+0000)",
      "nul.ndjson:3: source_id contains a NUL character (U+0000)",
    ]);
    const skipped = await importRecords(
      db,
      [nd("nul.ndjson", [uni("nul.example", "Null\u0000University"), uni("ok.example")])],
      { skipInvalid: true },
    );
    expect(skipped.committed).toBe(true);
    expect(skipped.universities.inserted).toBe(1);
    const thrown = await writeRecords(db, [uni("nul2.example", "A\u0000B") as never]).catch((e) => e);
    expect(thrown).toBeInstanceOf(IngestRejectedError);
    expect((await db.selectFrom("universities").select("domain").execute()).map((u) => u.domain)).toEqual([
      "ok.example",
    ]);
  });
});
