import { beforeEach, describe, expect, test } from "bun:test";
import { type DB, type IngestRecord, writeRecords } from "../../lib/index.ts";
import { openDatabase } from "../../src/db/open.ts";
import { createApp } from "../../src/http/app.ts";
import { DATABASES, describeEachDatabase, type TestDatabase } from "../support/databases.ts";
import { EXPORT_NOW, writeExportFixture } from "../support/export-fixture.ts";
import { testContext } from "../support/fixtures-app.ts";

type Row = Record<string, unknown> & { id?: number; university?: { id: number } };

const appOf = (db: DB) => createApp({ ...testContext(db), clock: () => EXPORT_NOW });

/** Walks a list to its end from `cursor=*`, calling `between` after each page (a write while the walk goes on). */
async function walk(
  app: ReturnType<typeof appOf>,
  path: string,
  between: (page: number) => Promise<void> = async () => {},
  first = "*",
) {
  const rows: Row[] = [];
  const totals: number[] = [];
  let cursor: string | null = first;
  for (let page = 1; cursor !== null; page++) {
    const r = await app.handle(new Request(`http://unirank.test${path}&cursor=${cursor}`));
    const body = await r.json();
    expect(r.status, JSON.stringify(body.error)).toBe(200);
    rows.push(...body.data);
    totals.push(body.meta.total);
    cursor = body.meta.next_cursor;
    expect(page).toBeLessThan(200);
    if (cursor !== null) await between(page);
  }
  return { rows, totals };
}

const universityIdOf = (row: Row) => (row.university ? row.university.id : (row.id as number));

let sequence = 0;
const scanOf = (domain: string, scores: Record<string, number>): IngestRecord => ({
  type: "scan",
  source_id: `walk-${++sequence}`,
  domain,
  status: "completed",
  started_at: "2026-11-20T00:00:00+00:00",
  completed_at: "2026-11-20T00:00:00+00:00",
  ...scores,
});

describeEachDatabase("cursor walks", (get) => {
  let db: DB;
  let app: ReturnType<typeof appOf>;
  beforeEach(async () => {
    await get().reset();
    db = get().db;
    await writeExportFixture(db, 40);
    app = appOf(db);
  }, 120_000);

  const domainOf = async (id: number) =>
    (await db.selectFrom("universities").select("domain").where("id", "=", id).executeTakeFirstOrThrow())
      .domain;
  const json = async (path: string) => (await app.handle(new Request(`http://unirank.test${path}`))).json();

  test("universities: each of the list's universities exactly once while others are added and renamed", async () => {
    const all = (await json("/api/v2/universities?limit=100")).data as Row[];
    const before = all.map((u) => u.id as number);
    const { rows, totals } = await walk(app, "/api/v2/universities?limit=7", async (page) => {
      const seen = all[0]!;
      const unseen = all[all.length - page]!;
      await writeRecords(db, [
        { type: "university", domain: `aaa-${page}.example`, name: `AAA new ${page}`, country: "DE" },
        { type: "university", domain: `zzz-${page}.example`, name: `zzz new ${page}`, country: "DE" },
        // A university already given moves to the end, one still to come to the front.
        { type: "university", domain: seen.domain as string, name: `ZZZZ renamed ${page}`, country: "DE" },
        { type: "university", domain: unseen.domain as string, name: `AAAA renamed ${page}`, country: "DE" },
      ]);
    });
    const ids = rows.map((r) => r.id as number);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort((a, b) => a - b)).toEqual([...before].sort((a, b) => a - b));
    expect(new Set(totals)).toEqual(new Set([before.length]));
  });

  test("a university's scans: every completed scan once, oldest first, newer ones as they complete", async () => {
    // University 5 shares the completion time of its first scan with others: the keyset must stay within it.
    const id = 5;
    const domain = await domainOf(id);
    const before = (await json(`/api/v2/universities/${id}/history?limit=100`)).data as Row[];
    let added = 0;
    const { rows } = await walk(app, `/api/v2/universities/${id}/history?limit=2`, async () => {
      added++;
      await writeRecords(db, [
        {
          ...scanOf(domain, { overall_score: 50 }),
          completed_at: `2027-01-${String(added).padStart(2, "0")}T00:00:00+00:00`,
        } as IngestRecord,
      ]);
    });
    const ids = rows.map((r) => r.id as number);
    expect(new Set(ids).size).toBe(ids.length);
    for (const b of before) expect(ids).toContain(b.id as number);
    expect(rows.length).toBe(before.length + added);
    const owners = await db.selectFrom("scans").select("university_id").where("id", "in", ids).execute();
    expect(new Set(owners.map((o) => Number(o.university_id)))).toEqual(new Set([id]));
    const keys = rows.map((r) => `${r.completed_at} ${String(r.id).padStart(8, "0")}`);
    expect(keys).toEqual([...keys].sort());
  });

  for (const [name, path, score] of [
    ["rankings", "/api/v2/rankings?limit=5", "overall_score"],
    [
      "rankings of a country with a score window",
      "/api/v2/rankings?limit=2&country=il&min_score=1&max_score=99",
      "overall_score",
    ],
    ["a leaderboard", "/api/v2/leaderboard/ssl?limit=6", "tech_ssl_score"],
  ] as const) {
    test(`${name}: the ranking as it stood at the first page, each university once, while scores change`, async () => {
      const full = (await json(`${path.replace(/limit=\d+/, "limit=100")}`)).data as Row[];
      const before = full.map(universityIdOf);
      expect(before.length).toBeGreaterThan(2);
      const { rows, totals } = await walk(app, path, async (page) => {
        // The last university of the ranking jumps to the top, the first falls to the bottom.
        const up = before[before.length - page] as number;
        const down = before[page - 1] as number;
        await writeRecords(db, [
          scanOf(await domainOf(up), { [score]: 99.9, overall_score: 99.9 }),
          scanOf(await domainOf(down), { [score]: 0.1, overall_score: 0.1 }),
        ]);
      });
      expect(rows.map(universityIdOf)).toEqual(before);
      expect(rows.map((r) => r.rank)).toEqual(full.map((r) => r.rank));
      expect(new Set(totals)).toEqual(new Set([before.length]));
    });
  }

  test("regressions: the declines of the first page's window, each once, while new scans come in", async () => {
    const path = "/api/v2/regressions?days=365&min_drop=0&limit=3";
    const full = (await json(path.replace("limit=3", "limit=100"))).data as Row[];
    const before = full.map(universityIdOf);
    expect(before.length).toBeGreaterThan(3);
    const { rows } = await walk(app, path, async (page) => {
      const recovered = before[before.length - page] as number;
      await writeRecords(db, [scanOf(await domainOf(recovered), { overall_score: 100 })]);
    });
    expect(rows.map(universityIdOf)).toEqual(before);
    expect(rows.map((r) => r.drop)).toEqual(full.map((r) => r.drop));
  });

  test("a cursor altered, cut, or sent with other parameters is a 400 naming cursor; page and cursor exclude", async () => {
    const first = await json("/api/v2/rankings?limit=2&cursor=*");
    const next = first.meta.next_cursor as string;
    expect(next).toMatch(/^[A-Za-z0-9_-]+\.[0-9a-f]{16}$/);
    const flipped = next.replace(/^(.)/, (c) => (c === "W" ? "X" : "W"));
    for (const [path, param] of [
      [`/api/v2/rankings?limit=2&cursor=${flipped}`, "cursor"],
      [`/api/v2/rankings?limit=2&cursor=${next.slice(0, -3)}`, "cursor"],
      [`/api/v2/rankings?limit=2&cursor=nonsense`, "cursor"],
      [`/api/v2/rankings?limit=2&sort=technical&cursor=${next}`, "cursor"],
      [`/api/v2/leaderboard/overall?limit=2&cursor=${next}`, "cursor"],
      [`/api/v2/universities?limit=2&cursor=${next}`, "cursor"],
      [`/api/v2/rankings?limit=2&cursor=${next}&page=2`, "page"],
      [`/api/v2/rankings?cursor=`, "cursor"],
    ] as const) {
      const r = await app.handle(new Request(`http://unirank.test${path}`));
      const body = await r.json();
      expect(r.status, path).toBe(400);
      expect(body.error.code).toBe("INVALID_PARAMETER");
      expect(body.error.details.map((d: { param: string }) => d.param)).toEqual([param]);
    }
    // The same cursor with another limit goes on: the page size may change along a walk.
    const other = await app.handle(new Request(`http://unirank.test/api/v2/rankings?limit=3&cursor=${next}`));
    expect(other.status).toBe(200);
  });
});

/** A walk begun on one server and continued on another (no pinned order there): it goes on from its last row. */
for (const factory of DATABASES) {
  describe(`cursor walks across servers [${factory.kind}]`, () => {
    if (factory.unavailable || factory.kind === "pglite") {
      test.skip(`${factory.kind}: ${factory.unavailable ?? "one connection per database: no second server to ask"}`, () => {});
      return;
    }
    test("every list: the pages of two servers make the whole list once", async () => {
      const current = (await factory.create()) as TestDatabase;
      const other = await openDatabase(current.location as string);
      try {
        await writeExportFixture(current.db, 40);
        const a = appOf(current.db);
        const b = appOf(other.db);
        for (const path of [
          "/api/v2/universities?limit=4",
          "/api/v2/universities?limit=2&search=univ&country=de",
          "/api/v2/rankings?limit=4&sort=technical",
          "/api/v2/leaderboard/seo?limit=4",
          "/api/v2/regressions?days=365&min_drop=0&limit=4",
          "/api/v2/universities/5/history?limit=1",
        ]) {
          const whole = await walk(a, path.replace(/limit=\d+/, "limit=100"));
          // Pages alternate between the servers: B never holds A's pinned order, nor A B's.
          let flip = false;
          const rows: Row[] = [];
          let cursor: string | null = "*";
          while (cursor !== null) {
            const app = flip ? b : a;
            flip = !flip;
            const body = await (
              await app.handle(new Request(`http://unirank.test${path}&cursor=${cursor}`))
            ).json();
            rows.push(...body.data);
            cursor = body.meta.next_cursor;
          }
          expect([rows.length, whole.rows.length], path).toEqual([whole.rows.length, whole.rows.length]);
          expect(rows, path).toEqual(whole.rows);
        }
      } finally {
        await other.close();
        await current.close();
      }
    }, 120_000);
  });
}
