import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { CATEGORIES, CATEGORY_NAMES, SCORE_NAMES } from "../../lib/index.ts";
import { allRoutes } from "../../src/http/app.ts";
import { ResponseCache } from "../../src/http/cache.ts";
import { etagOf } from "../../src/http/respond.ts";
import { describeEachDatabase } from "../support/databases.ts";
import { appClient, type Client, serverClient, testContext } from "../support/fixtures-app.ts";
import { V2_NOW, type V2Ids, writeV2Fixture } from "../support/v2-fixture.ts";

interface Detail {
  param: string;
  message: string;
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/;

async function call(client: Client, path: string, init?: RequestInit) {
  const response = await client.fetch(path, init);
  const text = await response.text();
  return { response, status: response.status, body: text ? JSON.parse(text) : null };
}

/** A v2 success: exactly the envelope keys, `api_version` 2.0, an ISO timestamp. */
function expectEnvelope(body: Record<string, unknown>, withMeta: boolean) {
  expect(Object.keys(body).sort()).toEqual(
    withMeta
      ? ["api_version", "data", "meta", "success", "timestamp"]
      : ["api_version", "data", "success", "timestamp"],
  );
  expect(body.api_version).toBe("2.0");
  expect(body.success).toBe(true);
  expect(body.timestamp).toMatch(ISO);
}

/** A v2 error: the envelope with `success: false`, `data: null` and the error object. */
function expectV2Error(body: Record<string, unknown>, code: string) {
  expect(Object.keys(body).sort()).toEqual(["api_version", "data", "error", "success", "timestamp"]);
  expect(body.api_version).toBe("2.0");
  expect(body.success).toBe(false);
  expect(body.data).toBeNull();
  expect(body.timestamp).toMatch(ISO);
  const error = body.error as { code: string; message: string; details?: Detail[] };
  expect(error.code).toBe(code);
  expect(error.message.length).toBeGreaterThan(0);
  for (const k of Object.keys(error)) expect(["code", "message", "details"]).toContain(k);
  return error;
}

describeEachDatabase("http v2", (get) => {
  let ids: V2Ids;
  beforeAll(async () => {
    await get().reset();
    ids = await writeV2Fixture(get().db);
  });

  for (const mode of ["app", "server"] as const) {
    describe(mode, () => {
      let client: Client;
      beforeAll(() => {
        const ctx = { ...testContext(get().db), clock: () => V2_NOW };
        client = mode === "app" ? appClient(ctx) : serverClient(ctx);
      });
      afterAll(() => client.close());
      const ok = async (path: string, withMeta = false) => {
        const r = await call(client, path);
        expect(r.status).toBe(200);
        expect(r.response.headers.get("Content-Type")).toBe("application/json; charset=utf-8");
        expectEnvelope(r.body, withMeta);
        expect(r.body.timestamp).toBe("2026-06-30T12:00:00+00:00");
        return r.body;
      };
      const bad = async (path: string, params: string[]) => {
        const r = await call(client, path);
        expect(r.status).toBe(400);
        const error = expectV2Error(r.body, "INVALID_PARAMETER");
        expect((error.details ?? []).map((d) => d.param).sort()).toEqual([...params].sort());
        return error;
      };

      test("GET /universities: page, limit, search, country, meta", async () => {
        const all = await ok("/api/v2/universities?limit=100", true);
        expect(all.meta).toEqual({ page: 1, limit: 100, total: 10 });
        let body = await ok("/api/v2/universities?limit=3", true);
        expect(body.meta).toEqual({ page: 1, limit: 3, total: 10 });
        expect(body.data).toEqual(all.data.slice(0, 3));
        expect(Object.keys(body.data[0]).sort()).toEqual(["country", "created_at", "domain", "id", "name"]);
        const paged = [];
        for (let page = 1; page <= 4; page++) {
          paged.push(...(await ok(`/api/v2/universities?limit=3&page=${page}`, true)).data);
        }
        expect(paged).toEqual(all.data);
        body = await ok("/api/v2/universities?limit=3&page=4", true);
        expect(body.meta).toEqual({ page: 4, limit: 3, total: 10 });
        expect(body.data.length).toBe(1);
        body = await ok("/api/v2/universities?page=99", true);
        expect(body.data).toEqual([]);
        expect(body.meta).toEqual({ page: 99, limit: 20, total: 10 });
        body = await ok("/api/v2/universities?search=universitat%20zwei", true);
        expect(body.data.map((u: { domain: string }) => u.domain)).toEqual(["two.de.example"]);
        body = await ok("/api/v2/universities?country=at", true);
        expect(body.data.map((u: { country: string }) => u.country)).toEqual(["AT"]);
        // v1's sort/order are not v2 parameters: ignored like any unknown parameter
        body = await ok("/api/v2/universities?sort=bogus&order=sideways&limit=1", true);
        expect(body.data).toEqual(all.data.slice(0, 1));
      });

      test("GET /universities: every rejected parameter is named at once", async () => {
        for (const page of ["0", "-1", "1.5", "abc", ""])
          await bad(`/api/v2/universities?page=${page}`, ["page"]);
        for (const limit of ["0", "101", "2.0", "x"])
          await bad(`/api/v2/universities?limit=${limit}`, ["limit"]);
        await bad(`/api/v2/universities?search=${"x".repeat(101)}`, ["search"]);
        await bad("/api/v2/universities?search=", ["search"]);
        for (const country of ["DEU", "D", "1A"])
          await bad(`/api/v2/universities?country=${country}`, ["country"]);
        await bad("/api/v2/universities?page=0&limit=500&country=xyz&search=", [
          "page",
          "limit",
          "country",
          "search",
        ]);
        await bad("/api/v2/universities?page=1&page=2", ["page"]);
      });

      test("GET /universities/{id}: scan_count and latest_scan", async () => {
        let body = await ok(`/api/v2/universities/${ids.university("one.fr.example")}`);
        expect(body.data).toEqual({
          id: ids.university("one.fr.example"),
          domain: "one.fr.example",
          name: "Université Un",
          country: "FR",
          created_at: "2025-01-01 00:00:00",
          scan_count: 2,
          latest_scan: {
            id: ids.scan("one-new"),
            completed_at: "2026-06-20T00:00:00+00:00",
            overall_score: 62,
          },
          // Overall: nine (70) first, then one (62) of the nine ranked; the only one in FR.
          // (All imported without a profile: the one profile, `unknown`.)
          ranking: {
            score: "overall_score",
            profile: "unknown",
            rank: 2,
            total: 9,
            country: "FR",
            country_rank: 1,
            country_total: 1,
          },
        });
        body = await ok(`/api/v2/universities/${ids.university("ten.se.example")}`);
        expect(body.data.scan_count).toBe(0);
        expect(body.data.latest_scan).toBeNull();
        expect(body.data.ranking).toBeNull();
        const missing = await call(client, "/api/v2/universities/999999");
        expect(missing.status).toBe(404);
        expectV2Error(missing.body, "NOT_FOUND");
        for (const id of ["0", "-3", "abc", "1.5", "99999999999"])
          await bad(`/api/v2/universities/${id}`, ["id"]);
      });

      test("GET /rankings: page, limit (default 20), competition ranks, v1's sorts and filters", async () => {
        let body = await ok("/api/v2/rankings", true);
        // The fixture is imported without profiles: one profile, `unknown`, ranked by default.
        const profiles = { profile: "unknown", profiles: { unknown: 9 } };
        expect(body.meta).toEqual({ page: 1, limit: 20, total: 9, ...profiles });
        expect(body.data[0]).toEqual({
          rank: 1,
          id: ids.university("nine.at.example"),
          domain: "nine.at.example",
          name: "Universität Neun",
          country: "AT",
          overall_score: 70,
          webometrics_score: 66,
          technical_score: 67,
          research_score: 68,
          presence_score: 65,
        });
        expect(body.data.map((e: { rank: number }) => e.rank)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
        body = await ok("/api/v2/rankings?page=2&limit=3", true);
        expect(body.meta).toEqual({ page: 2, limit: 3, total: 9, ...profiles });
        expect(body.data.map((e: { rank: number }) => e.rank)).toEqual([4, 5, 6]);
        // v1's sorts and filters, with the same answers
        const query = "country=at&sort=research&min_score=60&max_score=99.5";
        body = await ok(`/api/v2/rankings?${query}`, true);
        const v1 = (await call(client, `/api/v1/rankings?${query}&limit=20`)).body;
        expect(body.data.length).toBeGreaterThan(0);
        expect(body.data).toEqual(v1.data);
        expect(body.meta).toEqual({ ...v1.meta, ...profiles });
        expect(body.data.every((e: { country: string }) => e.country === "AT")).toBe(true);
        body = await ok("/api/v2/rankings?sort=technical&limit=3", true);
        expect(body.data).toEqual((await call(client, "/api/v1/rankings?sort=technical&limit=3")).body.data);
        await bad("/api/v2/rankings?limit=101&page=0", ["limit", "page"]);
        await bad("/api/v2/rankings?sort=speed&min_score=101&country=x", ["sort", "min_score", "country"]);
        await bad("/api/v2/rankings?min_score=80&max_score=20", ["min_score", "max_score"]);
      });

      test("GET /scans/{id}: any status; scores only when completed", async () => {
        let body = await ok(`/api/v2/scans/${ids.scan("one-new")}`);
        expect(Object.keys(body.data)).toEqual([
          "id",
          "university",
          "status",
          "started_at",
          "completed_at",
          "profile",
          "rubric_version",
          "scores",
          "evidence",
        ]);
        expect(body.data.evidence).toBeNull(); // imported without evidence
        expect(body.data.status).toBe("completed");
        expect(Object.keys(body.data.scores)).toEqual([...SCORE_NAMES]);
        expect(body.data.scores.overall_score).toBe(62);
        body = await ok(`/api/v2/scans/${ids.scan("one-pending")}`);
        expect(body.data.status).toBe("pending");
        expect(body.data.scores).toBeNull();
        const missing = await call(client, "/api/v2/scans/999999");
        expect(missing.status).toBe(404);
        expect(expectV2Error(missing.body, "NOT_FOUND").message).toContain("999999");
        await bad("/api/v2/scans/0", ["id"]);
      });

      test("GET /scan-diff: changes and summary; 400 and 404 in the envelope", async () => {
        const body = await ok(`/api/v2/scan-diff?a=${ids.scan("one-old")}&b=${ids.scan("one-new")}`);
        expect(Object.keys(body.data)).toEqual(["a", "b", "changes", "summary", "checks"]);
        expect(body.data.checks).toBeNull(); // imported without evidence
        expect(body.data.changes[0]).toEqual({ score: "tech_ssl_score", a: 80, b: 100, delta: 20 });
        expect(body.data.summary).toEqual({ improved: 3, declined: 3, unchanged: 2, not_comparable: 2 });
        const same = await ok(`/api/v2/scan-diff?a=${ids.scan("two-new")}&b=${ids.scan("two-new")}`);
        expect(same.data.summary).toEqual({ improved: 0, declined: 0, unchanged: 2, not_comparable: 0 });
        await bad("/api/v2/scan-diff", ["a", "b"]);
        await bad("/api/v2/scan-diff?a=1", ["b"]);
        await bad("/api/v2/scan-diff?a=x&b=0", ["a", "b"]);
        let r = await call(client, `/api/v2/scan-diff?a=${ids.scan("one-new")}&b=999999`);
        expect(r.status).toBe(404);
        let error = expectV2Error(r.body, "NOT_FOUND");
        expect(error.message).toContain("999999");
        expect(error.details).toEqual([{ param: "b", message: "Scan 999999 does not exist" }]);
        r = await call(client, `/api/v2/scan-diff?a=${ids.scan("one-failed")}&b=${ids.scan("one-new")}`);
        expect(r.status).toBe(404);
        error = expectV2Error(r.body, "NOT_FOUND");
        expect(error.message).toContain("not completed");
        expect(error.details?.map((d) => d.param)).toEqual(["a"]);
      });

      test("GET /leaderboard/{category}: all 13 categories, each ranked by its score", async () => {
        for (const category of CATEGORY_NAMES) {
          const body = await ok(`/api/v2/leaderboard/${category}`, true);
          expect(body.meta.category).toBe(category);
          expect(body.meta.score).toBe(CATEGORIES[category]);
          expect(body.meta.limit).toBe(10);
          expect(body.data.length).toBeGreaterThan(0);
          // each entry's score is that category's score in the scan it names
          for (const entry of body.data) {
            expect(Object.keys(entry)).toEqual(["rank", "university", "score", "scan_id", "scan_date"]);
            expect(Object.keys(entry.university)).toEqual(["id", "domain", "name", "country"]);
            expect(entry.scan_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
            const scan = await ok(`/api/v2/scans/${entry.scan_id}`);
            expect(scan.data.scores[CATEGORIES[category]]).toBe(entry.score);
            expect(scan.data.university.id).toBe(entry.university.id);
          }
          const scores = body.data.map((e: { score: number }) => e.score);
          expect(scores).toEqual([...scores].sort((x, y) => y - x));
        }
        const top = await ok("/api/v2/leaderboard/overall?limit=1", true);
        expect(top.data.length).toBe(1);
        expect(top.data[0].university.domain).toBe("nine.at.example");
      });

      test("GET /leaderboard/{category}: an unknown category is 400 listing the allowed ones", async () => {
        for (const category of ["bogus", "SSL", "overall_score"]) {
          const error = await bad(`/api/v2/leaderboard/${category}`, ["category"]);
          for (const c of CATEGORY_NAMES) expect(error.message).toContain(c);
        }
        await bad("/api/v2/leaderboard/ssl?limit=0", ["limit"]);
        await bad("/api/v2/leaderboard/ssl?limit=101", ["limit"]);
        await bad("/api/v2/leaderboard/nope?limit=abc", ["category", "limit"]);
      });

      test("GET /regressions: defaults and parameters", async () => {
        let body = await ok("/api/v2/regressions", true);
        expect(body.meta).toEqual({
          category: "overall",
          score: "overall_score",
          days: 30,
          min_drop: 5,
          limit: 20,
          since: "2026-05-31T12:00:00+00:00",
          total: 3,
        });
        expect(body.data.map((e: { drop: number }) => e.drop)).toEqual([10, 8, 5]);
        expect(Object.keys(body.data[0])).toEqual(["university", "category", "previous", "current", "drop"]);
        body = await ok("/api/v2/regressions?days=31&min_drop=4.9&category=overall&limit=2", true);
        expect(body.meta.total).toBe(5);
        expect(body.data.map((e: { university: { domain: string } }) => e.university.domain)).toEqual([
          "three.it.example",
          "nine.at.example",
        ]);
        body = await ok("/api/v2/regressions?category=ssl", true);
        expect(body.data.map((e: { drop: number; category: string }) => [e.category, e.drop])).toEqual([
          ["ssl", 30],
          ["ssl", 17],
        ]);
      });

      test("GET /regressions: every rejected parameter", async () => {
        for (const days of ["0", "366", "1.5", "x"]) await bad(`/api/v2/regressions?days=${days}`, ["days"]);
        for (const d of ["-1", "100.1", "abc", "1e2"])
          await bad(`/api/v2/regressions?min_drop=${d}`, ["min_drop"]);
        for (const c of ["bogus", "Overall"]) await bad(`/api/v2/regressions?category=${c}`, ["category"]);
        for (const l of ["0", "101"]) await bad(`/api/v2/regressions?limit=${l}`, ["limit"]);
        await bad("/api/v2/regressions?days=0&min_drop=-1&category=x&limit=0", [
          "days",
          "min_drop",
          "category",
          "limit",
        ]);
      });

      test("GET /schema: title, version, server, every v2 path with parameters, auth, categories", async () => {
        const body = await ok("/api/v2/schema");
        const data = body.data;
        expect(data.title).toBe("unirank API");
        expect(data.version).toBe("2.0");
        expect(data.server).toBe("/api/v2");
        const v2Paths = allRoutes(testContext(get().db))
          .filter((r) => r.version === "v2")
          .map((r) => r.path.slice("/api/v2".length).replace(/:([a-z_]+)/g, "{$1}"));
        expect(Object.keys(data.paths).sort()).toEqual(v2Paths.sort());
        expect(Object.keys(data.paths)).toContain("/leaderboard/{category}");
        const regressionParams = data.paths["/regressions"].parameters;
        expect(regressionParams.map((p: { name: string }) => p.name)).toEqual([
          "days",
          "min_drop",
          "category",
          "limit",
          "cursor",
          "format",
        ]);
        expect(regressionParams[0]).toEqual({
          name: "days",
          in: "query",
          required: false,
          description: "Window in days for the latest scan",
          schema: { type: "integer", minimum: 1, maximum: 365, default: 30 },
        });
        const category = data.paths["/leaderboard/{category}"].parameters[0];
        expect(category).toMatchObject({ name: "category", in: "path", required: true });
        expect(category.schema.enum).toEqual(CATEGORY_NAMES);
        expect(data.paths["/scan-diff"].parameters.map((p: { required: boolean }) => p.required)).toEqual([
          true,
          true,
        ]);
        // This app runs without access control, and says so (the rules of a guarded server: http-hardening).
        expect(data.auth.enabled).toBe(false);
        expect(data.auth.anonymous.limit).toBeNull();
        expect(data.auth.api_key).toBeNull();
        expect(data.auth.hmac).toBeNull();
        expect(data.categories).toEqual(CATEGORY_NAMES);
        expect(data.categories.length).toBe(13);
      });

      test("errors under /api/v2 are enveloped: 404 unknown path, 405 other methods", async () => {
        let r = await call(client, "/api/v2/nope");
        expect(r.status).toBe(404);
        expectV2Error(r.body, "NOT_FOUND");
        r = await call(client, "/api/v2/leaderboard");
        expect(r.status).toBe(404);
        expectV2Error(r.body, "NOT_FOUND");
        for (const method of ["POST", "PUT", "DELETE", "PATCH"]) {
          r = await call(client, "/api/v2/regressions", { method });
          expect(r.status).toBe(405);
          expect(r.response.headers.get("Allow")).toBe("GET, HEAD, OPTIONS");
          expectV2Error(r.body, "METHOD_NOT_ALLOWED");
        }
        r = await call(client, `/api/v2/scans/${ids.scan("one-new")}`, { method: "DELETE" });
        expect(r.status).toBe(405);
        expectV2Error(r.body, "METHOD_NOT_ALLOWED");
      });

      test("trailing slash, HEAD, X-Request-Id, caching headers", async () => {
        const r = await call(client, "/api/v2/rankings/");
        expect(r.status).toBe(200);
        expect(r.response.headers.get("X-Request-Id")).toBeTruthy();
        expect(r.response.headers.get("Cache-Control")).toBe("public, max-age=60");
        const head = await client.fetch("/api/v2/schema", { method: "HEAD" });
        expect(head.status).toBe(200);
        expect(await head.text()).toBe("");
      });
    });
  }

  test("regressions follow the clock even with the response cache on", async () => {
    let now = V2_NOW;
    const cache = new ResponseCache();
    const client = appClient({ ...testContext(get().db, { cache }), clock: () => now });
    const domains = async () => {
      const r = await call(client, "/api/v2/regressions");
      return r.body.data.map((e: { university: { domain: string } }) => e.university.domain);
    };
    expect(await domains()).toContain("two.de.example");
    now = new Date(V2_NOW.getTime() + 1000);
    expect(await domains()).not.toContain("two.de.example");
    // other v2 answers are cached by data generation as usual
    await call(client, "/api/v2/rankings");
    await call(client, "/api/v2/rankings");
    expect(cache.hits).toBeGreaterThan(0);
  });

  test("a v2 ETag follows the payload, not the envelope timestamp, so 304 holds across seconds", async () => {
    let now = V2_NOW;
    const client = appClient({ ...testContext(get().db), clock: () => now });
    const first = await call(client, `/api/v2/universities/${ids.university("two.de.example")}`);
    const etag = first.response.headers.get("ETag");
    expect(etag).toBeTruthy();
    now = new Date(V2_NOW.getTime() + 5000);
    const again = await client.fetch(`/api/v2/universities/${ids.university("two.de.example")}`, {
      headers: { "If-None-Match": etag! },
    });
    expect(again.status).toBe(304);
    const other = await call(client, "/api/v2/universities/1");
    expect(other.response.headers.get("ETag")).not.toBe(etag);
    // The tag is the hash of what follows the timestamp member, in bytes, names with accents included; with the
    // response cache on, the same.
    const uncached = appClient({ ...testContext(get().db, { cache: false }), clock: () => now });
    const cached = appClient({ ...testContext(get().db, { cache: new ResponseCache() }), clock: () => now });
    for (const path of ["/api/v2/rankings", `/api/v2/universities/${ids.university("two.de.example")}`]) {
      const response = await uncached.fetch(path);
      const text = await response.text();
      expect(Buffer.byteLength(text)).toBeGreaterThan(text.length);
      const tail = text.slice(text.indexOf('",', text.indexOf('"timestamp":')) + 2);
      expect({ path, etag: response.headers.get("ETag") }).toEqual({ path, etag: etagOf(tail) });
      for (let i = 0; i < 2; i++) {
        const again = await cached.fetch(path);
        expect({ path, i, etag: again.headers.get("ETag") }).toEqual({ path, i, etag: etagOf(tail) });
      }
    }
  });
});
