import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { gunzipSync } from "node:zlib";
import { parse } from "csv-parse/sync";
import { createKey } from "../../lib/index.ts";
import { createAccessGuard } from "../../src/http/access.ts";
import { allRoutes, createApp } from "../../src/http/app.ts";
import { csvColumnsOf } from "../../src/http/csv/csv-table.ts";
import { describeEachDatabase } from "../support/databases.ts";
import { AWKWARD_NAMES, EXPORT_NOW, writeExportFixture } from "../support/export-fixture.ts";
import { appClient, type Client, serverClient, testContext } from "../support/fixtures-app.ts";

/** Every list, with parameters that make its rows awkward where they can be (the awkward names are in IL and SA). */
const LISTS = [
  "/api/v1/universities?search=awkward&limit=100",
  "/api/v1/universities?country=il&sort=created_at&order=desc",
  "/api/v1/rankings?limit=100&sort=technical",
  "/api/v1/compare?ids=26,27,28,1",
  "/api/v2/universities?limit=100",
  "/api/v2/rankings?country=sa",
  "/api/v2/leaderboard/ssl?limit=100",
  "/api/v2/regressions?days=365&min_drop=0&limit=100",
  "/api/v2/universities/27/history",
  "/api/v2/distribution?bins=6",
];

const cell = (v: unknown): string => (v === null || v === undefined ? "" : String(v));

/** A JSON row flattened as CSV flattens it, from the route's columns. */
function flat(row: unknown, columns: { path: readonly string[] }[]): string[] {
  return columns.map((c) => {
    let v: unknown = row;
    for (const k of c.path) v = v === null || v === undefined ? null : (v as Record<string, unknown>)[k];
    return cell(v);
  });
}

describeEachDatabase("http csv", (get) => {
  beforeAll(async () => {
    await get().reset();
    await writeExportFixture(get().db, 25);
  }, 120_000);

  for (const mode of ["app", "server"] as const) {
    describe(mode, () => {
      let client: Client;
      beforeAll(() => {
        const ctx = { ...testContext(get().db), clock: () => EXPORT_NOW };
        client = mode === "app" ? appClient(ctx) : serverClient(ctx);
      });
      afterAll(() => client.close());

      test("every list as CSV holds exactly the rows and values of its JSON answer (csv-parse reads it back)", async () => {
        const routes = allRoutes(testContext(get().db)).filter((r) => r.list);
        expect(routes.length).toBe(9);
        let awkward = 0;
        for (const path of LISTS) {
          const route = routes.find((r) =>
            new RegExp(`^${r.path.replace(/:[a-z]+/g, "[^/]+")}$`).test(path.split("?")[0]!),
          );
          const columns = csvColumnsOf(route!.response!);
          const json = await (await client.fetch(path)).json();
          const r = await client.fetch(`${path}&format=csv`.replace(/^([^?]*)&/, "$1?"));
          expect(r.status).toBe(200);
          expect(r.headers.get("Content-Type")).toBe("text/csv; charset=utf-8; header=present");
          const text = await r.text();
          expect(text.endsWith("\r\n")).toBe(true);
          const records: string[][] = parse(text, { bom: false, relax_column_count: false });
          expect(records[0], path).toEqual(columns.map((c) => c.name));
          expect(records.slice(1), path).toEqual((json.data as unknown[]).map((row) => flat(row, columns)));
          awkward += records.flat().filter((v) => (AWKWARD_NAMES as readonly string[]).includes(v)).length;
        }
        // Commas, quotes, CR/LF, right-to-left text, emoji and leading spaces all came back unchanged.
        expect(awkward).toBeGreaterThanOrEqual(AWKWARD_NAMES.length);
      });

      test("Accept: text/csv or format=csv asks for CSV; JSON otherwise; format wins; a bad format is 400", async () => {
        const type = async (path: string, accept?: string) =>
          (await client.fetch(path, accept ? { headers: { Accept: accept } } : {})).headers.get(
            "Content-Type",
          );
        const csv = "text/csv; charset=utf-8; header=present";
        const json = "application/json; charset=utf-8";
        expect(await type("/api/v2/universities", "text/csv")).toBe(csv);
        expect(await type("/api/v2/universities", "text/csv, */*")).toBe(csv);
        expect(await type("/api/v2/universities", "application/json;q=0.5, text/csv")).toBe(csv);
        expect(await type("/api/v2/universities", "text/csv;q=0.5, application/json")).toBe(json);
        expect(await type("/api/v2/universities", "application/json, text/csv")).toBe(json);
        expect(await type("/api/v2/universities", "*/*")).toBe(json);
        expect(await type("/api/v2/universities", "text/csv;q=0")).toBe(json);
        expect(await type("/api/v2/universities?format=json", "text/csv")).toBe(json);
        expect(await type("/api/v1/universities?format=csv", "application/json")).toBe(csv);
        // Not a list: Accept is not read, JSON as ever.
        expect(await type("/api/v2/universities/1", "text/csv")).toBe(json);
        const bad = await client.fetch("/api/v1/rankings?format=xml");
        expect(bad.status).toBe(400);
        expect((await bad.json()).error.details).toEqual([
          { param: "format", message: "format must be one of: json, csv" },
        ]);
      });

      test("an error asked as CSV is the JSON error of its version", async () => {
        const r = await client.fetch("/api/v2/rankings?limit=0", { headers: { Accept: "text/csv" } });
        expect(r.status).toBe(400);
        expect(r.headers.get("Content-Type")).toBe("application/json; charset=utf-8");
        const body = await r.json();
        expect(body.api_version).toBe("2.0");
        expect(body.error.code).toBe("INVALID_PARAMETER");
        const v1 = await client.fetch("/api/v1/universities/424242?format=csv");
        expect(v1.status).toBe(404);
        expect((await v1.json()).success).toBe(false);
      });

      test("meta in headers: total, the next page's Link, the whole meta as JSON", async () => {
        const r = await client.fetch("/api/v1/universities?limit=5&format=csv&country=IL");
        expect(r.headers.get("X-Total-Count")).toBe(
          String((await (await client.fetch("/api/v1/universities?limit=5&country=IL")).json()).meta.total),
        );
        expect(r.headers.get("Link")).toBe(
          '</api/v1/universities?limit=5&format=csv&country=IL&page=2>; rel="next"',
        );
        expect(JSON.parse(r.headers.get("X-Unirank-Meta")!)).toEqual({
          page: 1,
          limit: 5,
          total: Number(r.headers.get("X-Total-Count")),
        });
        const last = await client.fetch("/api/v1/universities?limit=100&format=csv");
        expect(last.headers.get("Link")).toBeNull();
        // A walk: the cursor in a header, and the Link that follows it.
        const walk = await client.fetch("/api/v2/rankings?cursor=*&limit=3&format=csv");
        const next = walk.headers.get("X-Next-Cursor")!;
        expect(next.length).toBeGreaterThan(10);
        expect(walk.headers.get("Link")).toBe(
          `</api/v2/rankings?cursor=${next}&limit=3&format=csv>; rel="next"`,
        );
        const second = await client.fetch(`/api/v2/rankings?cursor=${next}&limit=3&format=csv`);
        const rows: string[][] = parse(await second.text());
        expect(rows[1]?.[0]).toMatch(/^[0-9]+$/);
        expect(Number(rows[1]?.[0])).toBeGreaterThanOrEqual(3);
        // Scripts in browsers may read them.
        expect(walk.headers.get("Access-Control-Expose-Headers")).toContain("X-Next-Cursor");
        expect(walk.headers.get("Access-Control-Expose-Headers")).toContain("Link");
        // Regressions' meta keeps its characters beyond ASCII escaped (none here) and parses back.
        const reg = await client.fetch("/api/v2/regressions?format=csv&days=365&min_drop=0");
        expect(JSON.parse(reg.headers.get("X-Unirank-Meta")!).since).toBe("2025-11-21T00:00:00+00:00");
      });

      test("ETag per representation, 304, Vary: Accept, gzip and HEAD for CSV as for JSON", async () => {
        const path = "/api/v2/rankings?limit=100";
        const json = await client.fetch(path);
        const csv = await client.fetch(path, { headers: { Accept: "text/csv" } });
        for (const r of [json, csv]) expect(r.headers.get("Vary")).toBe("Accept, Accept-Encoding");
        const tag = csv.headers.get("ETag")!;
        expect(tag).toMatch(/^"[0-9a-f]+"$/);
        expect(tag).not.toBe(json.headers.get("ETag"));
        const again = await client.fetch(path, { headers: { Accept: "text/csv", "If-None-Match": tag } });
        expect(again.status).toBe(304);
        // The JSON tag does not validate the CSV representation.
        const other = await client.fetch(path, {
          headers: { Accept: "text/csv", "If-None-Match": json.headers.get("ETag")! },
        });
        expect(other.status).toBe(200);
        const text = await other.text();
        const gz = await client.fetch(path, { headers: { Accept: "text/csv", "Accept-Encoding": "gzip" } });
        expect(gz.headers.get("Content-Encoding")).toBe("gzip");
        expect(gz.headers.get("ETag")).toBe(`${tag.slice(0, -1)}-gzip"`);
        expect(gunzipSync(new Uint8Array(await gz.arrayBuffer())).toString("utf8")).toBe(text);
        const head = await client.fetch(path, { method: "HEAD", headers: { Accept: "text/csv" } });
        expect(head.status).toBe(200);
        expect(head.headers.get("Content-Type")).toBe("text/csv; charset=utf-8; header=present");
        expect(head.headers.get("Content-Length")).toBe(String(Buffer.byteLength(text)));
        // Non-list answers keep their Vary.
        expect((await client.fetch("/api/v2/universities/1")).headers.get("Vary")).toBe("Accept-Encoding");
      });
    });
  }

  test("v2 pages of up to 1,000 rows with an API key; anonymous requests and v1 keep 100", async () => {
    const db = get().db;
    const ctx = { ...testContext(db), clock: () => EXPORT_NOW };
    const access = createAccessGuard({ db, clock: ctx.clock, anonymousLimit: 0, pruneIntervalMs: 0 });
    const app = createApp({ ...ctx, access });
    const { key } = await createKey(db, { name: "researcher" });
    const ask = async (path: string, withKey: boolean) => {
      const r = await app.handle(
        new Request(`http://unirank.test${path}`, withKey ? { headers: { "X-API-Key": key } } : {}),
      );
      return { status: r.status, body: await r.json() };
    };
    try {
      for (const path of [
        "/api/v2/universities?limit=1000",
        "/api/v2/rankings?limit=1000",
        "/api/v2/leaderboard/ssl?limit=500&cursor=*",
        "/api/v2/regressions?limit=101",
      ]) {
        const anonymous = await ask(path, false);
        expect(anonymous.status).toBe(400);
        expect(anonymous.body.error.details[0]).toEqual({
          param: "limit",
          message: "limit must be an integer from 1 to 100 (up to 1000 with an API key)",
        });
        const keyed = await ask(path, true);
        expect(keyed.status).toBe(200);
      }
      expect((await ask("/api/v2/universities?limit=1000", true)).body.data.length).toBe(25 + 9);
      expect((await ask("/api/v2/universities?limit=1001", true)).status).toBe(400);
      expect((await ask("/api/v2/universities?limit=100", false)).status).toBe(200);
      // A university's scans: 500 anonymous (as before), 1,000 with a key.
      expect((await ask("/api/v2/universities/1/history?limit=500", false)).status).toBe(200);
      expect((await ask("/api/v2/universities/1/history?limit=501", false)).status).toBe(400);
      expect((await ask("/api/v2/universities/1/history?limit=1000", true)).status).toBe(200);
      // v1 keeps the specification's 100, key or not.
      expect((await ask("/api/v1/rankings?limit=101", true)).status).toBe(400);
    } finally {
      await access.close();
    }
  });
});
