import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SCORE_NAMES } from "../../lib/index.ts";
import { describeEachDatabase } from "../support/databases.ts";
import { FIXTURE_UNIVERSITIES, OVERALL_RANKING, writeFixture } from "../support/fixtures.ts";
import { appClient, type Client, serverClient, testContext } from "../support/fixtures-app.ts";

interface Detail {
  param: string;
  message: string;
}

async function json(client: Client, path: string, init?: RequestInit) {
  const response = await client.fetch(path, init);
  const text = await response.text();
  return { response, status: response.status, body: text ? JSON.parse(text) : null, text };
}

/** A v1 error body: exactly {success:false, error:{code, message, details?}}. */
function expectV1Error(body: unknown, code: string) {
  const b = body as { success: boolean; error: { code: string; message: string; details?: Detail[] } };
  expect(Object.keys(b).sort()).toEqual(["error", "success"]);
  expect(b.success).toBe(false);
  expect(b.error.code).toBe(code);
  expect(typeof b.error.message).toBe("string");
  expect(b.error.message.length).toBeGreaterThan(0);
  for (const k of Object.keys(b.error)) expect(["code", "message", "details"]).toContain(k);
  return b.error;
}

describeEachDatabase("http v1", (get) => {
  let ids = new Map<string, number>();
  const id = (domain: string) => ids.get(domain)!;
  beforeAll(async () => {
    ids = await writeFixture(get().db);
  });

  for (const mode of ["app", "server"] as const) {
    describe(mode, () => {
      let client: Client;
      beforeAll(() => {
        const ctx = testContext(get().db);
        client = mode === "app" ? appClient(ctx) : serverClient(ctx);
      });
      afterAll(() => client.close());

      test("GET /universities: data and meta {page, limit, total}", async () => {
        const { status, body, response } = await json(client, "/api/v1/universities?limit=2&sort=domain");
        expect(status).toBe(200);
        expect(response.headers.get("Content-Type")).toBe("application/json; charset=utf-8");
        expect(body.success).toBe(true);
        expect(body.meta).toEqual({ page: 1, limit: 2, total: FIXTURE_UNIVERSITIES.length });
        expect(body.data).toEqual([
          {
            id: id("alpha.de.example"),
            domain: "alpha.de.example",
            name: "Universität Alpha",
            country: "DE",
            created_at: "2024-01-01 00:00:00",
          },
          {
            id: id("delta.us.example"),
            domain: "delta.us.example",
            name: "Delta_Tech University",
            country: "US",
            created_at: "2023-05-05 10:00:00",
          },
        ]);
      });

      test("search through the URL: accents, case, full width, percent-encoded %", async () => {
        const find = async (q: string) =>
          (await json(client, `/api/v1/universities?search=${q}`)).body.data.map(
            (u: { domain: string }) => u.domain,
          );
        expect(await find("universite%20de%20montreal")).toEqual(["montreal.ca.example"]);
        expect(await find(encodeURIComponent("ＭＯＮＴＲÉＡＬ"))).toEqual(["montreal.ca.example"]);
        expect(await find("100%25")).toEqual(["gamma.us.example"]);
        expect(await find("_")).toEqual(["delta.us.example"]);
      });

      test("GET /universities/{id}: scan_count, no latest_scan; 404 in v1 shape", async () => {
        const { body } = await json(client, `/api/v1/universities/${id("alpha.de.example")}`);
        expect(body).toEqual({
          success: true,
          data: {
            id: id("alpha.de.example"),
            domain: "alpha.de.example",
            name: "Universität Alpha",
            country: "DE",
            created_at: "2024-01-01 00:00:00",
            scan_count: 2,
          },
        });
        const missing = await json(client, "/api/v1/universities/999999");
        expect(missing.status).toBe(404);
        expect(expectV1Error(missing.body, "NOT_FOUND").message).toContain("999999");
      });

      test("GET /universities/{id}/scores: all scores; 404 when never scanned", async () => {
        const { body } = await json(client, `/api/v1/universities/${id("alpha.de.example")}/scores`);
        expect(body.success).toBe(true);
        expect(body.data.scan_id).toBeInteger();
        for (const name of SCORE_NAMES) expect(name in body.data).toBe(true);
        expect(body.data.overall_score).toBe(90);
        expect(body.data.tech_ssl_score).toBe(45);
        expect(body.data.tech_speed_desktop_score).toBe(70);
        for (const d of ["eta.de.example", "theta.us.example"]) {
          const r = await json(client, `/api/v1/universities/${id(d)}/scores`);
          expect(r.status).toBe(404);
          expectV1Error(r.body, "NOT_FOUND");
        }
      });

      test("GET /universities/{id}/export: export object; 404 when never scanned", async () => {
        const { body, response } = await json(
          client,
          `/api/v1/universities/${id("alpha.de.example")}/export`,
        );
        expect(response.status).toBe(200);
        expect(Object.keys(body.data).sort()).toEqual([
          "exported_at",
          "latest_scores",
          "recommendations",
          "scan_history",
          "university",
        ]);
        expect(body.data.exported_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);
        expect(body.data.university).toMatchObject({
          id: id("alpha.de.example"),
          domain: "alpha.de.example",
        });
        expect(body.data.latest_scores.overall_score).toBe(90);
        expect(body.data.recommendations[0]).toEqual({
          category: "email_spf_score",
          score: 45,
          priority: "high",
          message: expect.any(String),
        });
        expect(body.data.scan_history).toHaveLength(2);
        const r = await json(client, `/api/v1/universities/${id("eta.de.example")}/export`);
        expect(r.status).toBe(404);
        expectV1Error(r.body, "NOT_FOUND");
      });

      test("GET /rankings: ranking entries with competition ranks; window; country", async () => {
        const { body } = await json(client, "/api/v1/rankings");
        expect(body.meta).toEqual({ page: 1, limit: 50, total: OVERALL_RANKING.length });
        expect(body.data.map((e: { domain: string; rank: number }) => [e.domain, e.rank])).toEqual(
          OVERALL_RANKING.map(([d, r]) => [d, r]),
        );
        expect(Object.keys(body.data[0]).sort()).toEqual(
          [
            "rank",
            "id",
            "domain",
            "name",
            "country",
            "overall_score",
            "webometrics_score",
            "technical_score",
            "research_score",
            "presence_score",
          ].sort(),
        );
        const w = await json(client, "/api/v1/rankings?min_score=60&max_score=80&limit=2&page=2&country=");
        expect(w.status).toBe(400);
        const w2 = await json(client, "/api/v1/rankings?min_score=60&max_score=80&limit=2&page=2");
        expect(w2.body.data.map((e: { rank: number }) => e.rank)).toEqual([2, 5]);
        expect(w2.body.meta).toEqual({ page: 2, limit: 2, total: 7 });
        const us = await json(client, "/api/v1/rankings?country=us&sort=technical");
        expect(us.body.data.map((e: { rank: number; country: string }) => [e.rank, e.country])).toEqual([
          [1, "US"],
          [2, "US"],
          [3, "US"],
        ]);
      });

      test("GET /stats", async () => {
        const { body } = await json(client, "/api/v1/stats");
        expect(body).toEqual({
          success: true,
          data: {
            total_universities: FIXTURE_UNIVERSITIES.length,
            total_scans: 12,
            average_score: 69.4,
            scanned_universities: 9,
            countries: 5,
            last_scan_at: "2026-03-03T03:03:03+00:00",
          },
        });
      });

      test("GET /compare: order kept, unscanned with nulls, unknown ids 404 naming them", async () => {
        const list = [id("gamma.us.example"), id("eta.de.example"), id("alpha.de.example")];
        const { body } = await json(client, `/api/v1/compare?ids=${list.join(",")}`);
        expect(body.data.map((e: { university: { id: number } }) => e.university.id)).toEqual(list);
        expect(body.data[0].scan_date).toBe("2025-06-01");
        expect(body.data[0].scores.overall_score).toBe(80);
        expect(body.data[1]).toMatchObject({ scan_date: null, scores: null });
        const missing = await json(client, `/api/v1/compare?ids=${list[0]},424242,434343`);
        expect(missing.status).toBe(404);
        const error = expectV1Error(missing.body, "NOT_FOUND");
        expect(error.message).toContain("424242");
        expect(error.message).toContain("434343");
      });

      test("every rejected ids form is 400 naming ids", async () => {
        for (const ids of ["1", "1,2,3,4,5,6,7,8,9,10,11", "1,1", "1,,2", "0,1", "", "a,b", "1;2", "-1,2"]) {
          const r = await json(client, `/api/v1/compare?ids=${ids}`);
          expect(r.status).toBe(400);
          const error = expectV1Error(r.body, "INVALID_PARAMETER");
          expect(error.details?.map((d) => d.param)).toEqual(["ids"]);
        }
        const none = await json(client, "/api/v1/compare");
        expect(none.status).toBe(400);
        expect(none.body.error.details).toEqual([{ param: "ids", message: "ids is required" }]);
        const twice = await json(client, "/api/v1/compare?ids=1,2&ids=3,4");
        expect(twice.status).toBe(400);
      });

      test("every rejected parameter form is 400 INVALID_PARAMETER naming the parameter", async () => {
        const cases: [string, string[]][] = [
          ["/api/v1/universities?page=1.5", ["page"]],
          ["/api/v1/universities?page=abc", ["page"]],
          ["/api/v1/universities?page=-1", ["page"]],
          ["/api/v1/universities?page=0", ["page"]],
          ["/api/v1/universities?page=", ["page"]],
          ["/api/v1/universities?limit=0", ["limit"]],
          ["/api/v1/universities?limit=101", ["limit"]],
          ["/api/v1/universities?limit=", ["limit"]],
          ["/api/v1/universities?sort=popularity", ["sort"]],
          ["/api/v1/universities?order=random", ["order"]],
          ["/api/v1/universities?search=", ["search"]],
          // NUL would be a 500 on PostgreSQL, which cannot hold it in text.
          ["/api/v1/universities?search=a%00b", ["search"]],
          ["/api/v1/universities?search=%0A", ["search"]],
          [`/api/v1/universities?search=${"a".repeat(101)}`, ["search"]],
          ["/api/v1/universities?country=DEU", ["country"]],
          ["/api/v1/universities?page=1&page=2", ["page"]],
          ["/api/v1/universities/0", ["id"]],
          ["/api/v1/universities/1.5", ["id"]],
          ["/api/v1/universities/abc/scores", ["id"]],
          ["/api/v1/universities/-1/export", ["id"]],
          ["/api/v1/universities/99999999999", ["id"]],
          ["/api/v1/rankings?limit=101", ["limit"]],
          ["/api/v1/rankings?sort=name", ["sort"]],
          ["/api/v1/rankings?min_score=-1", ["min_score"]],
          ["/api/v1/rankings?max_score=100.5", ["max_score"]],
          ["/api/v1/rankings?min_score=abc", ["min_score"]],
          ["/api/v1/rankings?min_score=70&max_score=60", ["min_score", "max_score"]],
          [
            "/api/v1/universities?page=0&limit=1000&sort=x&order=y&country=1",
            ["page", "limit", "country", "sort", "order"],
          ],
        ];
        for (const [path, params] of cases) {
          const r = await json(client, path);
          expect(`${path} → ${r.status}`).toBe(`${path} → 400`);
          const error = expectV1Error(r.body, "INVALID_PARAMETER");
          expect(error.details?.map((d) => d.param)).toEqual(params);
          for (const d of error.details ?? []) expect(d.message).toContain(d.param);
          expect(r.response.headers.get("Cache-Control")).toBe("no-store");
        }
      });

      test("unknown query parameters are ignored", async () => {
        const r = await json(client, "/api/v1/stats?foo=bar&page=zzz");
        expect(r.status).toBe(200);
        const u = await json(client, "/api/v1/universities?utm_source=x&limit=1");
        expect(u.body.meta.limit).toBe(1);
      });

      test("trailing slash is tolerated", async () => {
        for (const path of [
          "/api/v1/universities/",
          `/api/v1/universities/${id("alpha.de.example")}/`,
          "/api/v1/stats/",
        ]) {
          expect((await client.fetch(path)).status).toBe(200);
        }
        expect((await client.fetch("/health/")).status).toBe(200);
      });

      test("unknown paths under /api/v1 are 404 in the v1 shape", async () => {
        for (const path of [
          "/api/v1",
          "/api/v1/",
          "/api/v1/nothing",
          "/api/v1/universities/1/nothing",
          "/elsewhere",
        ]) {
          const r = await json(client, path);
          expect(r.status).toBe(404);
          expectV1Error(r.body, "NOT_FOUND");
        }
      });
    });
  }
});
