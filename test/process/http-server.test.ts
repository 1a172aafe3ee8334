import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { sql } from "kysely";
import { bumpGeneration, setGenerationWindow } from "../../lib/db/generation.ts";
import { writeRecords } from "../../lib/index.ts";
import { ResponseCache } from "../../src/http/cache.ts";
import { describeEachDatabase, seedSmall } from "../support/databases.ts";
import { writeFixture } from "../support/fixtures.ts";
import { appClient, type Client, serverClient, testContext } from "../support/fixtures-app.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Data paths whose answer depends only on the data (export carries the time of the request). */
const STABLE_PATHS = [
  "/api/v1/universities",
  "/api/v1/universities/1",
  "/api/v1/universities/1/scores",
  "/api/v1/rankings",
  "/api/v1/stats",
  "/api/v1/compare?ids=1,2",
];
const DATA_PATHS = [...STABLE_PATHS, "/api/v1/universities/1/export"];

describeEachDatabase("http: cross-cutting behaviour over a real server", (get) => {
  let server: Client;
  let app: Client;
  beforeAll(async () => {
    await seedSmall(get().db, 120, 3);
    const ctx = testContext(get().db);
    server = serverClient(ctx);
    app = appClient(ctx);
  });
  afterAll(() => server.close());

  test("405 with Allow, in the v1 error shape, for every other method on a known path", async () => {
    for (const method of ["POST", "PUT", "DELETE", "PATCH"]) {
      for (const path of ["/api/v1/universities", "/api/v1/universities/1/", "/api/v1/compare", "/health"]) {
        const r = await server.fetch(path, { method, body: method === "DELETE" ? null : "{}" });
        expect(r.status).toBe(405);
        expect(r.headers.get("Allow")).toBe("GET, HEAD, OPTIONS");
        expect(r.headers.get("Access-Control-Allow-Origin")).toBe("*");
        const body = await r.json();
        expect(body).toEqual({
          success: false,
          error: { code: "METHOD_NOT_ALLOWED", message: expect.stringContaining(method) },
        });
      }
    }
    const unknown = await server.fetch("/api/v1/nothing", { method: "POST" });
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error.code).toBe("NOT_FOUND");
  });

  test("HEAD: the GET headers without a body", async () => {
    const g = await server.fetch("/api/v1/stats");
    const h = await server.fetch("/api/v1/stats", { method: "HEAD" });
    expect(h.status).toBe(200);
    expect(await h.text()).toBe("");
    for (const name of ["ETag", "Content-Type", "Cache-Control", "Content-Length"]) {
      expect(h.headers.get(name)).toBe(g.headers.get(name));
    }
    const missing = await server.fetch("/api/v1/universities/999999", { method: "HEAD" });
    expect(missing.status).toBe(404);
  });

  test("OPTIONS preflight: 204 with CORS headers", async () => {
    const r = await server.fetch("/api/v1/rankings", {
      method: "OPTIONS",
      headers: {
        Origin: "https://example.org",
        "Access-Control-Request-Method": "GET",
        "Access-Control-Request-Headers": "x-api-key, if-none-match",
      },
    });
    expect(r.status).toBe(204);
    expect(r.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(r.headers.get("Access-Control-Allow-Methods")).toBe("GET, HEAD, OPTIONS");
    expect(r.headers.get("Access-Control-Allow-Headers")?.toLowerCase()).toContain("x-api-key");
    expect(Number(r.headers.get("Access-Control-Max-Age"))).toBeGreaterThan(0);
    expect(r.headers.get("X-Request-Id")).toMatch(UUID);
  });

  test("Access-Control-Allow-Origin: * and X-Request-Id on every kind of response", async () => {
    const responses = await Promise.all([
      server.fetch("/api/v1/stats"),
      server.fetch("/api/v1/universities?page=0"),
      server.fetch("/api/v1/universities/999999"),
      server.fetch("/nowhere"),
      server.fetch("/health"),
    ]);
    for (const r of responses) {
      expect(r.headers.get("Access-Control-Allow-Origin")).toBe("*");
      expect(r.headers.get("X-Request-Id")).toMatch(UUID);
      expect(r.headers.get("Access-Control-Expose-Headers")).toContain("X-Request-Id");
    }
  });

  test("ETag on every 200 GET; If-None-Match gives 304 with no body, also weak and listed", async () => {
    for (const path of STABLE_PATHS) {
      const first = await server.fetch(path);
      expect(`${path} ${first.status}`).toBe(`${path} 200`);
      const etag = first.headers.get("ETag");
      expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
      const again = await server.fetch(path);
      expect(again.headers.get("ETag")).toBe(etag);
      for (const inm of [etag!, `W/${etag}`, `"nope", ${etag}`, "*"]) {
        const r = await server.fetch(path, { headers: { "If-None-Match": inm } });
        expect(r.status).toBe(304);
        expect(await r.text()).toBe("");
        expect(r.headers.get("ETag")).toBe(etag);
        expect(r.headers.get("Cache-Control")).toBe("public, max-age=60");
        expect(r.headers.get("Access-Control-Allow-Origin")).toBe("*");
      }
      const stale = await server.fetch(path, { headers: { "If-None-Match": '"stale"' } });
      expect(stale.status).toBe(200);
    }
    const other = await server.fetch("/api/v1/universities?page=2");
    expect(other.headers.get("ETag")).not.toBe(
      (await server.fetch("/api/v1/universities")).headers.get("ETag"),
    );
  });

  test("Cache-Control: public, max-age=60 on data; no-store on /health and on errors", async () => {
    for (const path of DATA_PATHS) {
      const r = await server.fetch(path);
      expect(r.status).toBe(200);
      expect(r.headers.get("Cache-Control")).toBe("public, max-age=60");
      expect(r.headers.get("ETag")).toBeTruthy();
    }
    expect((await server.fetch("/health")).headers.get("Cache-Control")).toBe("no-store");
    expect((await server.fetch("/api/v1/universities/999999")).headers.get("Cache-Control")).toBe("no-store");
    expect((await server.fetch("/api/v1/rankings?limit=0")).headers.get("Cache-Control")).toBe("no-store");
  });

  test("gzip and br for large bodies when accepted; identical JSON after decompression", async () => {
    const path = "/api/v1/rankings?limit=100";
    const plain = await server.fetch(path, { headers: { "Accept-Encoding": "identity" } });
    expect(plain.headers.get("Content-Encoding")).toBeNull();
    const text = await plain.text();
    expect(Buffer.byteLength(text)).toBeGreaterThan(4096);
    expect(plain.headers.get("Vary")).toContain("Accept-Encoding");

    const gz = await server.fetch(path, { headers: { "Accept-Encoding": "gzip" } });
    expect(gz.headers.get("Content-Encoding")).toBe("gzip");
    const gzBytes = Buffer.from(await gz.arrayBuffer());
    expect(gzBytes.byteLength).toBeLessThan(Buffer.byteLength(text) / 2);
    expect(Number(gz.headers.get("Content-Length"))).toBe(gzBytes.byteLength);
    expect(gunzipSync(gzBytes).toString("utf8")).toBe(text);

    const br = await server.fetch(path, { headers: { "Accept-Encoding": "gzip, deflate, br" } });
    expect(br.headers.get("Content-Encoding")).toBe("br");
    expect(brotliDecompressSync(Buffer.from(await br.arrayBuffer())).toString("utf8")).toBe(text);

    const noBr = await server.fetch(path, { headers: { "Accept-Encoding": "br;q=0, gzip" } });
    expect(noBr.headers.get("Content-Encoding")).toBe("gzip");
    // Strong validators differ per representation (RFC 9110): one tag per content coding.
    const tag = plain.headers.get("ETag") ?? "";
    expect(gz.headers.get("ETag")).toBe(`${tag.slice(0, -1)}-gzip"`);
    expect(br.headers.get("ETag")).toBe(`${tag.slice(0, -1)}-br"`);
    expect(noBr.headers.get("ETag")).toBe(gz.headers.get("ETag"));
  });

  test("small bodies are never compressed", async () => {
    const r = await server.fetch("/api/v1/stats", { headers: { "Accept-Encoding": "gzip, br" } });
    expect(r.headers.get("Content-Encoding")).toBeNull();
    expect(JSON.parse(await r.text()).success).toBe(true);
    const e = await server.fetch("/api/v1/universities/999999", {
      headers: { "Accept-Encoding": "gzip, br" },
    });
    expect(e.headers.get("Content-Encoding")).toBeNull();
  });

  test("X-Request-Id: a sane one is echoed; anything else is replaced by a generated one", async () => {
    const sane = await server.fetch("/api/v1/stats", { headers: { "X-Request-Id": "req-42.a_b:c" } });
    expect(sane.headers.get("X-Request-Id")).toBe("req-42.a_b:c");
    for (const bad of ["x".repeat(500), "abc def", "a%0D%0ASet-Cookie: evil=1", '"><script>', "é"]) {
      const r = await app.fetch("/api/v1/stats", { headers: { "X-Request-Id": bad } });
      const id = r.headers.get("X-Request-Id");
      expect(id).toMatch(UUID);
      expect(r.headers.get("Set-Cookie")).toBeNull();
    }
    const a = (await server.fetch("/api/v1/stats")).headers.get("X-Request-Id");
    const b = (await server.fetch("/api/v1/stats")).headers.get("X-Request-Id");
    expect(a).toMatch(UUID);
    expect(a).not.toBe(b);
  });

  test("header injection over a raw socket: the value never reaches the response", async () => {
    const port = new URL((server as Client & { url: string }).url).port;
    const raw = await new Promise<string>((resolve, reject) => {
      let out = "";
      Bun.connect({
        hostname: "127.0.0.1",
        port: Number(port),
        socket: {
          open(s) {
            s.write(
              "GET /api/v1/stats HTTP/1.1\r\nHost: x\r\nX-Request-Id: ok\tSet-Cookie: evil=1\r\nConnection: close\r\n\r\n",
            );
          },
          data(_s, d) {
            out += d.toString();
          },
          close() {
            resolve(out);
          },
          error(_s, e) {
            reject(e);
          },
        },
      }).catch(reject);
    });
    expect(raw).not.toContain("evil");
    expect(raw.toLowerCase()).not.toContain("set-cookie");
  });
});

describeEachDatabase("http: an internal error never leaks a stack trace or SQL", (get) => {
  test("dropped table → 500 INTERNAL with a plain message; the log keeps the detail", async () => {
    await writeFixture(get().db);
    const ctx = testContext(get().db, { cache: false });
    const client = serverClient(ctx);
    try {
      expect((await client.fetch("/api/v1/rankings")).status).toBe(200);
      await sql`drop table latest_scans`.execute(get().db);
      // Rankings are served from memory built per data generation; a new generation makes them read again.
      await bumpGeneration(get().db);
      for (const path of ["/api/v1/rankings", "/api/v1/stats", "/api/v1/universities/1/scores"]) {
        const r = await client.fetch(path);
        expect(r.status).toBe(500);
        expect(r.headers.get("Cache-Control")).toBe("no-store");
        const text = await r.text();
        expect(JSON.parse(text)).toEqual({
          success: false,
          error: { code: "INTERNAL", message: "Internal error" },
        });
        for (const leak of ["latest_scans", "select", "SQL", "at ", ".ts", "Error", "stack", "no such"]) {
          expect(text).not.toContain(leak);
        }
      }
      const logged = ctx.logs.filter((l) => l.level === "error");
      expect(logged.length).toBeGreaterThanOrEqual(3);
      expect(JSON.stringify(logged[0]?.fields)).toContain("latest_scans");
    } finally {
      await client.close();
    }
  });
});

describeEachDatabase("http: response cache", (get) => {
  beforeAll(async () => {
    await writeFixture(get().db);
  });

  test("serves repeated requests from memory until the data generation changes", async () => {
    const cache = new ResponseCache({ maxEntries: 50 });
    const client = appClient(testContext(get().db, { cache }));
    const first = await (await client.fetch("/api/v1/universities/1")).json();
    expect(cache.size).toBe(1);
    const again = await (await client.fetch("/api/v1/universities/1")).json();
    expect(again).toEqual(first);
    expect(cache.hits).toBeGreaterThanOrEqual(1);
    // A write that bypasses unirank's writers bumps the generation through the data triggers (migration 007).
    setGenerationWindow(0);
    try {
      await sql`update universities set name = 'Renamed' where id = 1`.execute(get().db);
      const fresh = await (await client.fetch("/api/v1/universities/1")).json();
      expect(fresh.data.name).toBe("Renamed");
      await sql`update universities set name = ${first.data.name} where id = 1`.execute(get().db);
      await bumpGeneration(get().db);
    } finally {
      setGenerationWindow(1);
    }
  });

  test("a write through writeRecords invalidates every cached answer", async () => {
    const cache = new ResponseCache();
    const client = appClient(testContext(get().db, { cache }));
    const before = await (await client.fetch("/api/v1/stats")).json();
    const list = await (await client.fetch("/api/v1/universities?country=fr")).json();
    expect(cache.size).toBe(2);
    await writeRecords(get().db, [
      { type: "university", domain: "nu.fr.example", name: "Université Nu", country: "FR" },
      {
        type: "scan",
        source_id: "nu-1",
        domain: "nu.fr.example",
        status: "completed",
        completed_at: "2026-04-01T00:00:00+00:00",
        overall_score: 99,
      },
    ]);
    const after = await (await client.fetch("/api/v1/stats")).json();
    expect(after.data.total_universities).toBe(before.data.total_universities + 1);
    expect(after.data.total_scans).toBe(before.data.total_scans + 1);
    const list2 = await (await client.fetch("/api/v1/universities?country=fr")).json();
    expect(list2.meta.total).toBe(list.meta.total + 1);
    const top = await (await client.fetch("/api/v1/rankings?limit=1")).json();
    expect(top.data[0].domain).toBe("nu.fr.example");
  });

  test("keys are normalised: defaults, parameter order and unknown parameters share one entry", async () => {
    const cache = new ResponseCache();
    const client = appClient(testContext(get().db, { cache }));
    const a = await client.fetch("/api/v1/universities");
    const b = await client.fetch("/api/v1/universities/?limit=20&page=1&utm=x");
    const c = await client.fetch("/api/v1/universities?order=asc&sort=name");
    expect(cache.size).toBe(1);
    expect(b.headers.get("ETag")).toBe(a.headers.get("ETag"));
    expect(c.headers.get("ETag")).toBe(a.headers.get("ETag"));
    await client.fetch("/api/v1/universities?limit=21");
    expect(cache.size).toBe(2);
    // Errors and /health are never cached.
    await client.fetch("/api/v1/universities?limit=0");
    await client.fetch("/api/v1/universities/999999");
    await client.fetch("/health");
    expect(cache.size).toBe(2);
  });

  test("export is never cached: exported_at is the time of each request", async () => {
    const cache = new ResponseCache();
    let now = new Date("2026-05-01T10:00:00Z");
    const client = appClient({ ...testContext(get().db, { cache }), clock: () => now });
    const first = await (await client.fetch("/api/v1/universities/1/export")).json();
    now = new Date("2026-05-01T10:00:07Z");
    const second = await (await client.fetch("/api/v1/universities/1/export")).json();
    expect(first.data.exported_at).toBe("2026-05-01T10:00:00+00:00");
    expect(second.data.exported_at).toBe("2026-05-01T10:00:07+00:00");
    expect(cache.size).toBe(0);
  });

  test("least recently used entries are dropped beyond maxEntries", async () => {
    const cache = new ResponseCache({ maxEntries: 2 });
    const client = appClient(testContext(get().db, { cache }));
    await client.fetch("/api/v1/universities/1");
    await client.fetch("/api/v1/universities/2");
    await client.fetch("/api/v1/universities/1");
    await client.fetch("/api/v1/universities/3");
    expect(cache.size).toBe(2);
    const hits = cache.hits;
    await client.fetch("/api/v1/universities/1");
    expect(cache.hits).toBe(hits + 1);
    await client.fetch("/api/v1/universities/2");
    expect(cache.hits).toBe(hits + 1);
    expect(() => new ResponseCache({ maxEntries: 0 })).toThrow();
  });

  test("cache: false caches nothing; ETags and bodies are the same with and without the cache", async () => {
    const cached = appClient(testContext(get().db, { cache: new ResponseCache() }));
    const uncached = appClient(testContext(get().db, { cache: false }));
    for (const path of STABLE_PATHS) {
      const c1 = await cached.fetch(path);
      const c2 = await cached.fetch(path);
      const u = await uncached.fetch(path);
      const [t1, t2, tu] = await Promise.all([c1.text(), c2.text(), u.text()]);
      expect(t2).toBe(tu);
      expect(t1).toBe(tu);
      expect(c2.headers.get("ETag")).toBe(u.headers.get("ETag"));
      const notModified = await cached.fetch(path, { headers: { "If-None-Match": u.headers.get("ETag")! } });
      expect(notModified.status).toBe(304);
    }
  });
});

describe("http: cache module", () => {
  test("a stale entry is dropped on lookup", () => {
    const cache = new ResponseCache();
    cache.set("k", 1, { data: 1 });
    expect(cache.get("k", 1)?.payload).toEqual({ data: 1 });
    expect(cache.get("k", 2)).toBeUndefined();
    expect(cache.size).toBe(0);
  });
});
