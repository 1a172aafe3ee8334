import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import SwaggerParser from "@apidevtools/swagger-parser";
import { parse } from "csv-parse/sync";
import { CATEGORY_NAMES } from "../../lib/index.ts";
import { allRoutes, createApp } from "../../src/http/app.ts";
import { describeEachDatabase } from "../support/databases.ts";
import { appClient, type Client, testContext } from "../support/fixtures-app.ts";
import { expectMatches } from "../support/json-schema.ts";
import { V2_NOW, type V2Ids, writeV2Fixture } from "../support/v2-fixture.ts";

// biome-ignore lint/suspicious/noExplicitAny: an OpenAPI document is walked freely
type Doc = any;

const toOpenApi = (path: string) => path.replace(/:([A-Za-z_]+)/g, "{$1}");

describeEachDatabase("openapi", (get) => {
  let ids: V2Ids;
  let client: Client;
  let doc: Doc;
  beforeAll(async () => {
    await get().reset();
    ids = await writeV2Fixture(get().db);
    client = appClient({ ...testContext(get().db), clock: () => V2_NOW });
    const r = await client.fetch("/openapi.json");
    expect(r.status).toBe(200);
    expect(r.headers.get("Content-Type")).toBe("application/json; charset=utf-8");
    doc = await r.json();
  });
  afterAll(() => client.close());

  test("is served raw (no wrapper) and validates against the OpenAPI 3.1 specification", async () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.success).toBeUndefined();
    expect(doc.api_version).toBeUndefined();
    // swagger-parser validates 3.1 documents against the official 3.1 schema, then resolves every $ref
    const api = await SwaggerParser.validate(structuredClone(doc));
    expect((api as Doc).openapi).toBe("3.1.0");
  });

  test("the validator does reject a broken document (so the check above can fail)", async () => {
    const broken = structuredClone(doc);
    broken.paths["/api/v2/regressions"].get.parameters[0].in = "body";
    await expect(SwaggerParser.validate(broken)).rejects.toThrow();
    const dangling = structuredClone(doc);
    dangling.paths["/api/v2/scans/{id}"].get.responses["404"] = { $ref: "#/components/responses/Nope" };
    await expect(SwaggerParser.validate(dangling)).rejects.toThrow();
  });

  test("every route the app serves is in the document, and every path in it is served", async () => {
    const ctx = testContext(get().db);
    const routePaths = allRoutes(ctx).map((r) => toOpenApi(r.path));
    expect(Object.keys(doc.paths).sort()).toEqual([...routePaths].sort());
    // what the router actually finds, not just our list: every documented path is routed
    const app = createApp(ctx);
    for (const path of Object.keys(doc.paths)) {
      const r = await app.handle(new Request(`http://unirank.test${path.replace(/\{[^}]+\}/g, "1")}`));
      const text = await r.text();
      expect(text, path).not.toContain("No route for");
    }
    for (const p of ["/health", "/openapi.json", "/docs", "/api/v2/schema", "/api/v1/compare"]) {
      expect(Object.keys(doc.paths)).toContain(p);
    }
    for (const item of Object.values(doc.paths) as Doc[]) expect(Object.keys(item)).toEqual(["get"]);
  });

  test("every documented operation answers 200 with a body matching its documented schema", async () => {
    const uni = ids.university("one.fr.example");
    const values: Record<string, string> = {
      category: "ssl",
      a: String(ids.scan("one-old")),
      b: String(ids.scan("one-new")),
      ids: `${uni},${ids.university("two.de.example")}`,
    };
    for (const [path, item] of Object.entries(doc.paths) as [string, Doc][]) {
      const op = item.get;
      const id = path.startsWith("/api/v2/scans/") ? ids.scan("one-new") : uni;
      let url = path.replace("{id}", String(id)).replace("{category}", values.category!);
      const required = (op.parameters ?? []).filter((p: Doc) => p.in === "query" && p.required);
      if (required.length > 0) url += `?${required.map((p: Doc) => `${p.name}=${values[p.name]}`).join("&")}`;
      const r = await client.fetch(url);
      expect(`${url} ${r.status}`).toBe(`${url} 200`);
      const contentType = (r.headers.get("Content-Type") ?? "").split(";")[0]!;
      const documented = op.responses["200"].content;
      const types = Object.keys(documented);
      expect(types[0]).toBe(contentType);
      const text = await r.text();
      if (contentType !== "application/json") {
        expect(types).toEqual([contentType]);
        expect(text.length).toBeGreaterThan(0);
        continue;
      }
      expectMatches({ ...documented[contentType].schema, components: doc.components }, JSON.parse(text));
      const names = (op.parameters ?? []).map((p: Doc) => p.name);
      if (names.includes("cursor")) {
        // A walk's first page matches the same documented schema (its meta has next_cursor instead of page).
        const walk = await client.fetch(`${url}${url.includes("?") ? "&" : "?"}cursor=*&limit=1`);
        const body = await walk.json();
        expect(body.meta.next_cursor === null || typeof body.meta.next_cursor === "string").toBe(true);
        expectMatches({ ...documented[contentType].schema, components: doc.components }, body);
      }
      if (!types.includes("text/csv")) {
        expect(types).toEqual(["application/json"]);
        continue;
      }
      // Lists answer CSV too: the header row names the documented columns, every record has one field each.
      expect(names).toContain("format");
      const csv = await client.fetch(url, { headers: { Accept: "text/csv" } });
      expect(csv.headers.get("Content-Type")).toBe("text/csv; charset=utf-8; header=present");
      const records: string[][] = parse(await csv.text());
      const example = documented["text/csv"].schema.examples[0] as string;
      expect(records[0]).toEqual(example.trimEnd().split(","));
      for (const record of records) expect(record.length).toBe(records[0]!.length);
    }
  }, 60_000);

  test("documented error shapes are what each version answers (400, 404, 405)", async () => {
    const schemas = { components: doc.components };
    const cases = [
      ["/api/v1/rankings?limit=0", "GET", 400, "V1"],
      ["/api/v2/rankings?limit=0", "GET", 400, "V2"],
      ["/api/v1/universities/999999", "GET", 404, "V1"],
      ["/api/v2/scans/999999", "GET", 404, "V2"],
      ["/api/v2/nowhere", "GET", 404, "V2"],
      ["/api/v1/stats", "POST", 405, "V1"],
      ["/api/v2/schema", "DELETE", 405, "V2"],
    ] as const;
    for (const [path, method, status, version] of cases) {
      const r = await client.fetch(path, { method });
      expect(r.status).toBe(status);
      expectMatches({ $ref: `#/components/schemas/${version}Error`, ...schemas }, await r.json());
    }
    // and the operations point at them
    const scan = doc.paths["/api/v2/scans/{id}"].get.responses;
    for (const s of ["400", "401", "404", "405", "429", "500", "503"])
      expect(scan[s].$ref).toStartWith("#/components/responses/V2");
    const v1 = doc.paths["/api/v1/universities/{id}"].get.responses;
    for (const s of ["400", "401", "404", "405", "429", "500", "503"])
      expect(v1[s].$ref).toStartWith("#/components/responses/V1");
    expect(doc.components.responses.V2RateLimited.headers["Retry-After"]).toBeDefined();
    expect(doc.components.responses.V1MethodNotAllowed.headers.Allow).toBeDefined();
    expect(doc.components.schemas.V2Error.properties.data).toEqual({ type: "null" });
  });

  test("parameters carry the ranges, defaults and enums that validate requests", () => {
    const params = (path: string) =>
      Object.fromEntries(
        (doc.paths[path].get.parameters as Doc[]).filter((p) => p.name).map((p) => [`${p.in}:${p.name}`, p]),
      );
    const reg = params("/api/v2/regressions");
    expect(reg["query:days"].schema).toEqual({ type: "integer", minimum: 1, maximum: 365, default: 30 });
    expect(reg["query:min_drop"].schema).toEqual({ type: "number", minimum: 0, maximum: 100, default: 5 });
    expect(reg["query:category"].schema.enum).toEqual(CATEGORY_NAMES);
    expect(reg["query:category"].schema.default).toBe("overall");
    // v2 lists: 100 rows for anonymous requests, 1,000 with an API key; the description says so.
    expect(reg["query:limit"].schema).toEqual({ type: "integer", minimum: 1, maximum: 1000, default: 20 });
    expect(reg["query:limit"].description).toBe("Entries per page, 1 to 100; up to 1000 with an API key");
    expect(reg["query:cursor"].schema).toMatchObject({ type: "string", minLength: 1 });
    expect(reg["query:format"].schema.enum).toEqual(["json", "csv"]);
    expect(params("/api/v1/rankings")["query:limit"].schema.maximum).toBe(100);
    expect(params("/api/v1/rankings")["query:cursor"]).toBeUndefined();
    expect(params("/api/v2/leaderboard/{category}")["path:category"]).toMatchObject({
      required: true,
      schema: { type: "string", enum: CATEGORY_NAMES },
    });
    expect(params("/api/v2/leaderboard/{category}")["query:limit"].schema.default).toBe(10);
    expect(params("/api/v1/rankings")["query:limit"].schema.default).toBe(50);
    expect(params("/api/v1/universities")["query:sort"].schema.enum).toEqual([
      "name",
      "domain",
      "country",
      "created_at",
    ]);
    expect(params("/api/v2/scan-diff")["query:a"].required).toBe(true);
    expect(params("/api/v2/universities/{id}")["path:id"].schema).toMatchObject({
      type: "integer",
      minimum: 1,
    });
  });

  test("security: the three API-key locations, HMAC headers on v2, nothing on health and docs", () => {
    expect(doc.components.securitySchemes).toEqual({
      ApiKeyHeader: expect.objectContaining({ type: "apiKey", in: "header", name: "X-API-Key" }),
      BearerAuth: expect.objectContaining({ type: "http", scheme: "bearer" }),
      ApiKeyQuery: expect.objectContaining({ type: "apiKey", in: "query", name: "api_key" }),
    });
    const v2 = doc.paths["/api/v2/rankings"].get;
    expect(v2.security).toEqual([{}, { ApiKeyHeader: [] }, { BearerAuth: [] }, { ApiKeyQuery: [] }]);
    expect(v2.parameters.map((p: Doc) => p.$ref).filter(Boolean)).toEqual([
      "#/components/parameters/XTimestamp",
      "#/components/parameters/XSignature",
    ]);
    expect(doc.paths["/api/v1/rankings"].get.security).toHaveLength(4);
    expect(doc.paths["/health"].get.security).toEqual([]);
    expect(doc.paths["/docs"].get.security).toEqual([]);
  });

  test("/api/v2/schema lists the same parameters as the document", async () => {
    const r = await client.fetch("/api/v2/schema");
    const schema = (await r.json()).data;
    for (const [path, entry] of Object.entries(schema.paths) as [string, Doc][]) {
      const op = doc.paths[`/api/v2${path}`].get;
      expect(entry.operation_id).toBe(op.operationId);
      expect(entry.parameters).toEqual(op.parameters.filter((p: Doc) => !p.$ref));
    }
  });

  test("servers names where the paths are: the root, or the prefix it is mounted under", async () => {
    expect(doc.servers).toEqual([{ url: "/" }]);
    const ctx = testContext(get().db);
    const { Elysia } = await import("elysia");
    const { unirank } = await import("../../src/elysia.ts");
    const outer = new Elysia().use(unirank({ ...ctx, prefix: "/unirank", access: false }));
    const r = await outer.handle(new Request("http://unirank.test/unirank/openapi.json"));
    expect(r.status).toBe(200);
    expect((await r.json()).servers).toEqual([{ url: "/unirank" }]);
  });
});

describe("openapi without a database", () => {
  test("the document is built from the route list alone", async () => {
    const { openSqlite } = await import("../../src/db/open.ts");
    const opened = openSqlite(":memory:"); // not migrated: docs must not need the database
    const client = appClient(testContext(opened.db));
    const r = await client.fetch("/openapi.json");
    expect(r.status).toBe(200);
    expect((await r.json()).openapi).toBe("3.1.0");
    expect((await client.fetch("/docs")).status).toBe(200);
    await opened.close();
  });
});
