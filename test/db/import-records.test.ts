import { beforeEach, expect, test } from "bun:test";
import { readGeneration } from "../../lib/db/generation.ts";
import { addReceiver, formatIssue, type ImportSource, importRecords, SCORE_NAMES } from "../../lib/index.ts";
import { describeEachDatabase } from "../support/databases.ts";

const nd = (name: string, lines: unknown[]): ImportSource => ({
  name,
  format: "ndjson",
  content: [lines.map((l) => (typeof l === "string" ? l : JSON.stringify(l))).join("\n")],
});
const csv = (name: string, text: string): ImportSource => ({ name, format: "csv", content: [text] });

const uni = (domain: string, name = `University ${domain}`, country = "DE") => ({
  type: "university",
  domain,
  name,
  country,
});
const scan = (source_id: string, domain: string, overall = 50, extra: Record<string, unknown> = {}) => ({
  type: "scan",
  source_id,
  domain,
  status: "completed",
  started_at: "2026-03-01T11:00:00+00:00",
  completed_at: "2026-03-01T12:00:00+00:00",
  overall_score: overall,
  tech_ssl_score: 80,
  ...extra,
});

describeEachDatabase("import", (get) => {
  beforeEach(async () => {
    await get().reset();
  });
  const count = async (table: "universities" | "scans" | "webhook_deliveries" | "latest_scans") =>
    Number(
      (
        await get()
          .db.selectFrom(table)
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

  test("NDJSON and CSV, both types in one file; a re-run changes nothing", async () => {
    const { db } = get();
    const sources = () => [
      nd("a.ndjson", [
        uni("alpha.example"),
        scan("s1", "alpha.example", 61.5),
        scan("s2", "alpha.example", 70),
      ]),
      csv(
        "b.csv",
        "type,domain,name,country,source_id,status,completed_at,overall_score,tech_ssl_score\n" +
          "university,beta.example,Beta,fr,,,,,\n" +
          "scan,beta.example,,,b1,completed,2026-03-02 10:00:00,55.5,\n" +
          "scan,alpha.example,,,b2,pending,,,\n",
      ),
    ];
    const first = await importRecords(db, sources());
    expect(first.issues.map(formatIssue)).toEqual([]);
    expect(first.committed).toBe(true);
    expect(first.universities).toEqual({ inserted: 2, updated: 0, unchanged: 0 });
    expect(first.scans).toEqual({ inserted: 4, updated: 0, unchanged: 0 });
    expect(first.records).toBe(6);
    const gen = await readGeneration(db);
    const beta = await db
      .selectFrom("universities")
      .selectAll()
      .where("domain", "=", "beta.example")
      .executeTakeFirstOrThrow();
    expect(beta.country).toBe("FR");
    const b1 = await db
      .selectFrom("scans")
      .selectAll()
      .where("source_id", "=", "b1")
      .executeTakeFirstOrThrow();
    expect(b1.completed_at).toBe("2026-03-02T10:00:00+00:00");
    expect(b1.overall_score).toBe(55.5);
    expect(b1.tech_ssl_score).toBeNull();
    expect(await count("latest_scans")).toBe(2);
    const latest = await db
      .selectFrom("latest_scans")
      .selectAll()
      .where("university_id", "=", b1.university_id)
      .executeTakeFirstOrThrow();
    expect(latest.scan_id).toBe(b1.id);

    const again = await importRecords(db, sources());
    expect(again.committed).toBe(true);
    expect(again.universities).toEqual({ inserted: 0, updated: 0, unchanged: 2 });
    expect(again.scans).toEqual({ inserted: 0, updated: 0, unchanged: 4 });
    expect(await readGeneration(db)).toBe(gen);
    expect(await count("scans")).toBe(4);
  });

  test("universities are updated by domain; a country change reaches latest_scans", async () => {
    const { db } = get();
    await importRecords(db, [
      nd("a.ndjson", [uni("alpha.example", "Alpha", "DE"), scan("s1", "alpha.example")]),
    ]);
    const r = await importRecords(db, [nd("b.ndjson", [uni("ALPHA.example", "Alpha Neu", "AT")])]);
    expect(r.universities).toEqual({ inserted: 0, updated: 1, unchanged: 0 });
    const row = await db.selectFrom("universities").selectAll().executeTakeFirstOrThrow();
    expect([row.name, row.country, row.search_text]).toEqual(["Alpha Neu", "AT", "alpha neu alpha.example"]);
    expect((await db.selectFrom("latest_scans").select("country").executeTakeFirstOrThrow()).country).toBe(
      "AT",
    );
  });

  test("CSV quoting, multi-line names, UTF-8, CRLF and a BOM", async () => {
    const { db } = get();
    const text =
      "\uFEFFtype,domain,name,country\r\n" +
      'university,q1.example,"Universität ""Quoted"", Campus Nord",DE\r\n' +
      'university,q2.example,"Line one\r\nLine two",JP\r\n' +
      "university,q3.example,東京工業大学,JP\r\n" +
      "university,q4.example,جامعة القاهرة,EG\r\n" +
      "university,q5.example,bad,XX\r\n";
    const bytes = new TextEncoder().encode(text);
    // split inside a multi-byte character and between \r and \n
    const cut = text.indexOf("東") * 1 + 40;
    const r = await importRecords(
      db,
      [
        {
          name: "q.csv",
          format: "csv",
          content: [bytes.slice(0, cut), bytes.slice(cut, cut + 1), bytes.slice(cut + 1)],
        },
      ],
      { skipInvalid: true },
    );
    expect(r.issues.map(formatIssue)).toEqual(['q.csv:7: country "XX" is not an ISO 3166-1 alpha-2 code']);
    const names = (
      await db.selectFrom("universities").select(["domain", "name"]).orderBy("domain").execute()
    ).map((u) => u.name);
    expect(names).toEqual([
      'Universität "Quoted", Campus Nord',
      "Line one\nLine two",
      "東京工業大学",
      "جامعة القاهرة",
    ]);
  });

  test("every bad record is reported with its file and line; by default nothing is written", async () => {
    const { db } = get();
    await addReceiver(db, { url: "http://127.0.0.1:9/", secret: "s" });
    const gen = await readGeneration(db);
    const good = [uni("ok.example"), scan("good-1", "ok.example")];
    const r = await importRecords(db, [
      nd("bad.ndjson", [
        ...good, // lines 1-2
        { ...uni("x1.example"), color: "red" }, // 3 unknown field
        scan("b1", "ok.example", 101), // 4 score outside
        scan("b2", "ok.example", 50, { tech_ssl_score: "high" }), // 5 not a number
        scan("b3", "nowhere.example"), // 6 domain never seen
        scan("b4", "ok.example", 50, { completed_at: "2026-02-30T10:00:00Z" }), // 7 bad date
        { type: "university", domain: "x2.example", country: "DE" }, // 8 missing name
        scan("b5", "ok.example", 50, { status: "done" }), // 9 bad status
        uni("x3.example", "X3", "Germany"), // 10 bad country
        "{not json", // 11
        { domain: "x4.example" }, // 12 missing type
        uni("not a domain"), // 13 bad domain
        scan("b6", "ok.example", 50, { status: "pending", completed_at: null }), // 14 pending with scores
        { ...scan("b7", "ok.example"), completed_at: null }, // 15 completed without completed_at
        { ...scan("b8", "ok.example", 50), started_at: "2026-03-02T00:00:00+00:00" }, // 16 started after completed
        { ...uni("x5.example"), status: "completed" }, // 17 field of the other type
        scan("b9", "x3.example"), // 18 its university was rejected
      ]),
      csv("bad.csv", "type,domain,name,country,colour\nuniversity,c.example,C,DE,blue\n"),
      csv("bad2.csv", 'type,domain,name,country\nuniversity,"c.example,C,DE\n'),
      csv("bad3.csv", "type,domain,name,country\nuniversity,c.example,C\n"),
    ]);
    expect(r.committed).toBe(false);
    const lines = r.issues.map(formatIssue);
    const expected: [string, RegExp][] = [
      ["bad.csv:1", /unknown column "colour"; every row of this file is ignored/],
      ["bad.ndjson:3", /unknown field "color"/],
      ["bad.ndjson:4", /overall_score 101 is outside 0\.\.100/],
      ["bad.ndjson:5", /tech_ssl_score "high" is not a number/],
      ["bad.ndjson:6", /domain nowhere\.example, which is neither stored nor imported before this line/],
      ["bad.ndjson:7", /completed_at "2026-02-30T10:00:00Z" is not a valid date/],
      ["bad.ndjson:8", /missing required field name/],
      ["bad.ndjson:9", /status "done" is not one of pending, running, completed, failed/],
      ["bad.ndjson:10", /country "Germany" is not an ISO 3166-1 alpha-2 code/],
      ["bad.ndjson:11", /not valid JSON/],
      ["bad.ndjson:12", /missing required field type/],
      ["bad.ndjson:13", /domain "not a domain" is not a valid domain name/],
      ["bad.ndjson:14", /a pending scan carries no scores/],
      ["bad.ndjson:15", /missing required field completed_at/],
      ["bad.ndjson:16", /started_at .* is after completed_at/],
      ["bad.ndjson:17", /field status does not apply to a university/],
      ["bad.ndjson:18", /university record was rejected \(line 10\)/],
      ["bad2.csv:2", /CSV: /],
      ["bad3.csv:2", /3 fields where the header has 4/],
    ];
    for (const [where, what] of expected) {
      const hit = lines.find((l) => l.startsWith(`${where}: `));
      expect(hit, `${where} in ${lines.join("\n")}`).toBeDefined();
      expect(hit).toMatch(what);
    }
    expect(lines.some((l) => l.startsWith("bad.ndjson:1:") || l.startsWith("bad.ndjson:2:"))).toBe(false);
    expect(await count("universities")).toBe(0);
    expect(await count("scans")).toBe(0);
    expect(await count("webhook_deliveries")).toBe(0);
    expect(await readGeneration(db)).toBe(gen);
  });

  test("--skip-invalid imports the good records and still lists the bad", async () => {
    const { db } = get();
    const r = await importRecords(
      db,
      [
        nd("mixed.ndjson", [
          uni("ok.example"),
          scan("g1", "ok.example"),
          scan("x", "ok.example", 150),
          scan("g2", "ok.example"),
        ]),
      ],
      { skipInvalid: true },
    );
    expect(r.committed).toBe(true);
    expect(r.rejected).toBe(1);
    expect(r.issues.map(formatIssue)).toEqual(["mixed.ndjson:3: overall_score 150 is outside 0..100"]);
    expect(r.scans.inserted).toBe(2);
    expect(await count("scans")).toBe(2);
  });

  test("a pending scan may complete later (and fires then); a completed one is final", async () => {
    const { db } = get();
    await addReceiver(db, { url: "http://127.0.0.1:9/", secret: "s" });
    const pending = {
      ...scan("p1", "ok.example"),
      status: "running",
      completed_at: null,
      overall_score: null,
      tech_ssl_score: null,
    };
    let r = await importRecords(db, [nd("a.ndjson", [uni("ok.example"), pending])]);
    expect(r.deliveries).toBe(0);
    expect(await count("latest_scans")).toBe(0);
    r = await importRecords(db, [nd("b.ndjson", [scan("p1", "ok.example", 42)])]);
    expect(r.scans).toEqual({ inserted: 0, updated: 1, unchanged: 0 });
    expect(r.deliveries).toBe(1);
    expect(await count("latest_scans")).toBe(1);
    r = await importRecords(db, [nd("c.ndjson", [scan("p1", "ok.example", 43)])]);
    expect(r.committed).toBe(false);
    expect(r.issues.map(formatIssue)[0]).toMatch(
      /^c\.ndjson:1: scan p1 is already stored as completed with other values/,
    );
  });

  test("composites and overall are derived from sub-scores when missing", async () => {
    const { db } = get();
    const only = {
      type: "scan",
      source_id: "d1",
      domain: "ok.example",
      status: "completed",
      completed_at: "2026-03-01",
    };
    const r = await importRecords(db, [
      nd("d.ndjson", [uni("ok.example"), { ...only, webo_size_score: 40, webo_visibility_score: 60 }]),
    ]);
    expect(r.issues).toEqual([]);
    const s = await db.selectFrom("scans").selectAll().executeTakeFirstOrThrow();
    expect(s.webo_composite_score).toBe(50);
    expect(typeof s.overall_score).toBe("number");
    const none = await importRecords(db, [nd("e.ndjson", [{ ...only, source_id: "d2" }])]);
    expect(none.issues.map(formatIssue)).toEqual([
      "e.ndjson:1: a completed scan needs overall_score, or sub-scores to derive it from",
    ]);
  });

  test("every score column is accepted in both formats", async () => {
    const { db } = get();
    const header = ["type", "domain", "source_id", "status", "completed_at", ...SCORE_NAMES].join(",");
    const row = [
      "scan",
      "ok.example",
      "all-1",
      "completed",
      "2026-03-01T12:00:00+02:00",
      ...SCORE_NAMES.map((_, i) => String(i)),
    ];
    const r = await importRecords(db, [
      nd("u.ndjson", [uni("ok.example")]),
      csv("all.csv", `${header}\n${row.join(",")}\n`),
    ]);
    expect(r.issues).toEqual([]);
    const s = await db.selectFrom("scans").selectAll().executeTakeFirstOrThrow();
    expect(s.completed_at).toBe("2026-03-01T10:00:00+00:00");
    SCORE_NAMES.forEach((name, i) => {
      expect(s[name]).toBe(i);
    });
  });

  test("an aborted import leaves nothing", async () => {
    const { db } = get();
    const abort = new AbortController();
    async function* slow() {
      yield uni("ok.example");
      for (let i = 0; i < 2000; i++) {
        if (i === 1500) abort.abort();
        yield scan(`a${i}`, "ok.example");
      }
    }
    await expect(
      importRecords(db, [{ name: "gen", records: slow() }], { signal: abort.signal, batchSize: 100 }),
    ).rejects.toThrow(/interrupted/);
    expect(await count("universities")).toBe(0);
    expect(await count("scans")).toBe(0);
  });

  test("a signal heard while the writer finishes (its refresh lets the event loop run) leaves nothing", async () => {
    const { db } = get();
    const abort = new AbortController();
    // 1,200 universities: the refresh of latest_scans goes in three chunks, with the event loop run between them.
    async function* records() {
      for (let i = 0; i < 1200; i++) {
        yield uni(`u${i}.example`);
        yield scan(`f${i}`, `u${i}.example`);
      }
      // After the last record: no check of the record loop sees it, only one after the writer's finish.
      setImmediate(() => abort.abort());
    }
    await expect(
      importRecords(db, [{ name: "gen", records: records() }], { signal: abort.signal }),
    ).rejects.toThrow(/interrupted/);
    expect(abort.signal.aborted).toBe(true);
    expect(await count("universities")).toBe(0);
    expect(await count("scans")).toBe(0);
    expect(await count("latest_scans")).toBe(0);
  });
});
