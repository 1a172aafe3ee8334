import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../support/databases.ts";
import { runCli } from "../support/serve-process.ts";

/** `unirank export` as a command: its format rules, its messages, and what it leaves behind when it fails. */
describe("unirank export (command line)", () => {
  let dir: string;
  let db: string;
  beforeAll(async () => {
    dir = tempDir("unirank-export-cli-");
    db = join(dir, "data.db");
    expect((await runCli(["seed", "--universities", "30", "--db", db])).code).toBe(0);
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test("standard output: the data on stdout, the summary on stderr; a selection", async () => {
    const all = await runCli(["export", "-", "--db", db]);
    expect(all.code).toBe(0);
    const records = all.out
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(records.filter((x) => x.type === "university").length).toBe(30);
    expect(all.err).toMatch(
      /^exported 30 universities and \d+ scans \(\d+ rows, ndjson\) to - in [\d.]+ s \([\d,]+ rows\/s\); data generation \d+, unirank \d/m,
    );
    const country = records[0].country as string;
    const some = await runCli([
      "export",
      "-",
      "--db",
      db,
      "--country",
      country.toLowerCase(),
      "--since",
      "400d",
    ]);
    const selected = some.out
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    const domains = new Set(
      records.filter((x) => x.type === "university" && x.country === country).map((x) => x.domain),
    );
    expect(selected.filter((x) => x.type === "university").map((x) => x.domain)).toEqual([...domains]);
    expect(selected.filter((x) => x.type === "scan").every((x) => domains.has(x.domain))).toBe(true);
  }, 60_000);

  test("bad requests are named before anything is opened or written", async () => {
    const cases: [string[], RegExp][] = [
      [["export", join(dir, "x.txt")], /cannot tell the format from .*x\.txt; give --format/],
      [
        ["export", join(dir, "x.csv"), "--format", "xlsx"],
        /--format must be one of ndjson, csv, scans-csv, checks-csv, parquet, sqlite/,
      ],
      [["export", "-", "--format", "sqlite"], /a sqlite export needs a file name, not -/],
      [
        ["export", join(dir, "x.parquet.gz")],
        /a parquet file is compressed inside; give it a name without \.gz/,
      ],
      [
        ["export", join(dir, "x.csv"), "--country", "Germany"],
        /not an ISO 3166-1 alpha-2 country code: GERMANY/,
      ],
      [["export", join(dir, "x.csv"), "--domain", "not a domain"], /not a domain name: not a domain/],
      [["export", join(dir, "x.csv"), "--since", "yesterday"], /--since must be a timestamp/],
    ];
    for (const [args, message] of cases) {
      const r = await runCli([...args, "--db", db]);
      expect(r.code, args.join(" ")).toBe(1);
      expect(r.err).toMatch(message);
    }
    expect(readdirSync(dir).sort()).toEqual(
      ["data.db", "data.db-shm", "data.db-wal"].filter((f) => existsSync(join(dir, f))),
    );
  }, 180_000);

  test("a file that cannot be written fails the export and leaves no partial file", async () => {
    const r = await runCli(["export", join(dir, "missing", "out.csv"), "--db", db]);
    expect(r.code).toBe(1);
    expect(r.err).toContain("ENOENT");
    expect(existsSync(join(dir, "missing"))).toBe(false);
    const ok = await runCli(["export", join(dir, "out.csv.gz"), "--format", "scans-csv", "--db", db]);
    expect(ok.code).toBe(0);
    expect(readdirSync(dir).filter((f) => f.includes("partial"))).toEqual([]);
  }, 60_000);
});
