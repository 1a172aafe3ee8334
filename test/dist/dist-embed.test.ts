/**
 * `unirank/elysia` from source, on every database kind: the plugin on an embedder's app and the fetch handler,
 * under a prefix, with access control per client IP. (test/dist/dist-package.test.ts runs the published build on Node.)
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Elysia } from "elysia";
import { createFetchHandler, type FetchHandler, normalizePrefix, unirank } from "../../src/elysia.ts";
import { describeEachDatabase, seedSmall } from "../support/databases.ts";

test("prefixes are normalised and checked", () => {
  expect(normalizePrefix("")).toBe("");
  expect(normalizePrefix("/")).toBe("");
  expect(normalizePrefix("/unirank/")).toBe("/unirank");
  expect(normalizePrefix("/a/b")).toBe("/a/b");
  for (const bad of ["unirank", "/a//b", "/a b", "/a?x"]) expect(() => normalizePrefix(bad)).toThrow();
});

describeEachDatabase("embedding: Elysia plugin and fetch handler", (get) => {
  let app: Elysia;
  let base = "";
  let handle: FetchHandler;
  beforeAll(async () => {
    await seedSmall(get().db, 30, 4);
    const host = new Elysia()
      .get("/", () => "home")
      .post("/form", () => "posted")
      .use(unirank({ db: get().db, prefix: "/data/", access: { anonymousLimit: 1000 } }))
      .listen({ hostname: "127.0.0.1", port: 0 });
    app = host as unknown as Elysia;
    base = `http://127.0.0.1:${host.server?.port}`;
    handle = createFetchHandler({ db: get().db, prefix: "/x", access: { anonymousLimit: 2 } });
  });
  afterAll(async () => {
    await app.stop();
    await handle.close();
  });

  test("the plugin serves v1, v2, health and docs under the prefix; the app's routes are untouched", async () => {
    expect(await (await fetch(`${base}/`)).text()).toBe("home");
    expect(await (await fetch(`${base}/form`, { method: "POST" })).text()).toBe("posted");
    const v1 = await fetch(`${base}/data/api/v1/universities?limit=2`);
    expect(v1.status).toBe(200);
    expect(v1.headers.get("X-Request-Id")).toBeTruthy();
    expect((await v1.json()).meta.total).toBe(30);
    const v2 = await fetch(`${base}/data/api/v2/nothing`);
    expect(v2.status).toBe(404);
    expect((await v2.json()).api_version).toBe("2.0");
    const wrong = await fetch(`${base}/data/api/v1/universities`, { method: "DELETE" });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("Allow")).toBe("GET, HEAD, OPTIONS");
    expect((await fetch(`${base}/data/health`)).status).toBe(200);
    const html = await (await fetch(`${base}/data/docs`)).text();
    const links = [...html.matchAll(/(?:src|href|data-openapi)="(\/[^"]+)"/g)].map((m) => m[1] ?? "");
    expect(links).toContain("/data/openapi.json");
    for (const link of links) expect((await fetch(`${base}${link}`)).status, link).toBe(200);
    const doc = await (await fetch(`${base}/data/openapi.json`)).json();
    expect(doc.servers).toEqual([{ url: "/data" }]);
    // The rate limit counts the real socket peer the plugin passes on.
    const limited = await fetch(`${base}/data/api/v1/stats`);
    expect(limited.headers.get("X-RateLimit-Limit")).toBe("1000");
  });

  test("the fetch handler: prefix only, limits per client IP", async () => {
    const call = (path: string, ip: string) =>
      handle(new Request(`http://localhost:3000${path}`), { remote: { address: ip } });
    expect((await call("/x/api/v1/stats", "198.51.100.1")).status).toBe(200);
    expect((await call("/x/api/v1/stats", "198.51.100.1")).status).toBe(200);
    const third = await call("/x/api/v1/stats", "198.51.100.1");
    expect(third.status).toBe(429);
    expect(third.headers.get("Retry-After")).toMatch(/^[0-9]+$/);
    expect((await call("/x/api/v1/stats", "198.51.100.2")).status).toBe(200);
    expect((await call("/x/health", "198.51.100.1")).status).toBe(200);
    const outside = await call("/health", "198.51.100.3");
    expect(outside.status).toBe(404);
    expect((await outside.json()).error.code).toBe("NOT_FOUND");
    expect((await call("/xy/health", "198.51.100.3")).status).toBe(404);
  });
});
