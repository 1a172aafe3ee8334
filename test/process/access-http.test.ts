import { beforeEach, expect, test } from "bun:test";
import { createKey, type DB, readAudit, revokeKey, signRequest } from "../../lib/index.ts";
import { type AccessGuard, createAccessGuard } from "../../src/http/access.ts";
import { createApp } from "../../src/http/app.ts";
import { bunConnInfo } from "../../src/http/conn-info.ts";
import { describeEachDatabase } from "../support/databases.ts";
import { testContext } from "../support/fixtures-app.ts";

const T0 = Date.parse("2026-03-01T12:00:00Z");

interface Harness {
  url: string;
  access: AccessGuard;
  /** The injected clock, in ms; tests move it. */
  time: { now: number };
  get(path: string, headers?: Record<string, string>): Promise<Response>;
  stop(): Promise<void>;
}

/** A real server on loopback whose access guard sees the socket peer, with an injectable clock. */
function startHarness(
  db: DB,
  options: { anonymousLimit?: number; trustProxy?: string[]; hostname?: string } = {},
): Harness {
  const time = { now: T0 };
  const clock = () => new Date(time.now);
  const ctx = { ...testContext(db, { cache: false }), clock };
  const access = createAccessGuard({
    db,
    clock,
    anonymousLimit: options.anonymousLimit ?? 100,
    trustProxy: options.trustProxy ?? [],
    pruneIntervalMs: 0,
  });
  const app = createApp({ ...ctx, access });
  const server = Bun.serve({
    hostname: options.hostname ?? "127.0.0.1",
    port: 0,
    fetch: (request, bun) => app.handle(request, bunConnInfo(bun, request)),
  });
  const url = `http://127.0.0.1:${server.port}`;
  return {
    url,
    access,
    time,
    get: (path, headers = {}) => fetch(`${url}${path}`, { headers }),
    async stop() {
      server.stop(true);
      await access.close();
    },
  };
}

const V1 = "/api/v1/universities?limit=1";
const V2 = "/api/v2/universities?limit=1";

describeEachDatabase("access control over HTTP", (get) => {
  beforeEach(async () => {
    await get().reset();
  });

  test("anonymous: 100 per rolling hour per IP, headers on every limited response, 429 with Retry-After", async () => {
    const h = startHarness(get().db);
    try {
      for (let i = 0; i < 100; i++) {
        h.time.now = T0 + i * 1000;
        // Mix successes, errors and both versions: all count and all carry the headers.
        const path = i % 10 === 9 ? "/api/v1/universities/999999" : i % 2 ? V2 : V1;
        const r = await h.get(path);
        expect(r.status).toBe(i % 10 === 9 ? 404 : 200);
        expect(r.headers.get("X-RateLimit-Limit")).toBe("100");
        expect(r.headers.get("X-RateLimit-Remaining")).toBe(String(99 - i));
        expect(r.headers.get("X-RateLimit-Reset")).toBe(String(T0 / 1000 + 3600));
        expect(r.headers.get("RateLimit-Policy")).toBe('"per-ip";q=100;w=3600');
        expect(r.headers.get("RateLimit")).toBe(`"per-ip";r=${99 - i};t=${3600 - i}`);
        await r.arrayBuffer();
      }
      h.time.now = T0 + 100_000;
      const limited = await h.get(V1);
      expect(limited.status).toBe(429);
      expect(limited.headers.get("Retry-After")).toBe("3500");
      expect(limited.headers.get("X-RateLimit-Remaining")).toBe("0");
      expect(limited.headers.get("X-RateLimit-Limit")).toBe("100");
      expect(limited.headers.get("X-RateLimit-Reset")).toBe(String(T0 / 1000 + 3600));
      expect(limited.headers.get("RateLimit")).toBe('"per-ip";r=0;t=3500');
      const body = (await limited.json()) as { success: boolean; error: { code: string } };
      expect(body.success).toBe(false);
      expect(body.error.code).toBe("RATE_LIMITED");
      const limitedV2 = await h.get(V2);
      expect(limitedV2.status).toBe(429);
      const v2 = (await limitedV2.json()) as { api_version: string; data: null; error: { code: string } };
      expect(v2.api_version).toBe("2.0");
      expect(v2.data).toBeNull();
      expect(v2.error.code).toBe("RATE_LIMITED");
      // Exempt: health (and docs/openapi, which are not versioned routes).
      const health = await h.get("/health");
      expect(health.status).toBe(200);
      expect(health.headers.get("X-RateLimit-Limit")).toBeNull();
      await health.arrayBuffer();
      // The window slides: the first request ages out at exactly T0 + 3600 s, not a millisecond earlier.
      h.time.now = T0 + 3_599_999;
      expect((await h.get(V1)).status).toBe(429);
      h.time.now = T0 + 3_600_000;
      const again = await h.get(V1);
      expect(again.status).toBe(200);
      expect(again.headers.get("X-RateLimit-Remaining")).toBe("0");
      expect((await h.get(V1)).status).toBe(429);
      h.time.now = T0 + 3_601_000;
      expect((await h.get(V1)).status).toBe(200);
    } finally {
      await h.stop();
    }
  });

  test("150 concurrent requests from one client admit exactly the remainder", async () => {
    const h = startHarness(get().db);
    try {
      for (let i = 0; i < 20; i++) await (await h.get(V1)).arrayBuffer();
      const responses = await Promise.all(Array.from({ length: 150 }, () => h.get(V1)));
      const statuses = await Promise.all(
        responses.map(async (r) => {
          await r.arrayBuffer();
          return r.status;
        }),
      );
      expect(statuses.filter((s) => s === 200).length).toBe(80);
      expect(statuses.filter((s) => s === 429).length).toBe(70);
    } finally {
      await h.stop();
    }
  });

  test("a 304 carries the rate-limit headers too, and counts", async () => {
    const h = startHarness(get().db);
    try {
      const first = await h.get(V1);
      const etag = first.headers.get("ETag") ?? "";
      await first.arrayBuffer();
      expect(etag).not.toBe("");
      const cached = await h.get(V1, { "If-None-Match": etag });
      expect(cached.status).toBe(304);
      expect(cached.headers.get("X-RateLimit-Remaining")).toBe("98");
      expect(cached.headers.get("RateLimit")).toStartWith('"per-ip";r=98;');
    } finally {
      await h.stop();
    }
  });

  test("the limit can be turned off (0): no headers, never 429", async () => {
    const h = startHarness(get().db, { anonymousLimit: 0 });
    try {
      for (let i = 0; i < 5; i++) {
        const r = await h.get(V1);
        expect(r.status).toBe(200);
        expect(r.headers.get("X-RateLimit-Limit")).toBeNull();
        await r.arrayBuffer();
      }
    } finally {
      await h.stop();
    }
  });

  test("X-Forwarded-For from an untrusted peer is ignored", async () => {
    const h = startHarness(get().db, { anonymousLimit: 3 });
    try {
      for (const xff of ["198.51.100.1", "198.51.100.2", "203.0.113.5, 198.51.100.3"]) {
        expect((await h.get(V1, { "X-Forwarded-For": xff })).status).toBe(200);
      }
      expect((await h.get(V1, { "X-Forwarded-For": "198.51.100.4" })).status).toBe(429);
    } finally {
      await h.stop();
    }
  });

  test("from a trusted proxy it is used; ::ffff: mapped IPv4 is the IPv4 client; IPv6 grouped by /64", async () => {
    const h = startHarness(get().db, { anonymousLimit: 2, trustProxy: ["127.0.0.1", "::1"] });
    const status = async (xff: string) => {
      const r = await h.get(V1, { "X-Forwarded-For": xff });
      await r.arrayBuffer();
      return r.status;
    };
    try {
      expect(await status("198.51.100.1")).toBe(200);
      expect(await status("6.6.6.6, 198.51.100.1")).toBe(200); // the client-written hop is not believed
      expect(await status("198.51.100.1")).toBe(429);
      expect(await status("::ffff:198.51.100.1")).toBe(429); // same client
      expect(await status("198.51.100.2")).toBe(200); // another client
      expect(await status("2001:db8:1:2::1")).toBe(200);
      expect(await status("2001:db8:1:2:aaaa:bbbb:cccc:dddd")).toBe(200);
      expect(await status("2001:db8:1:2::ffff")).toBe(429); // same /64
      expect(await status("2001:db8:1:3::1")).toBe(200); // next /64
      // The proxy's own requests (no header) are its own client.
      expect((await h.get(V1)).status).toBe(200);
    } finally {
      await h.stop();
    }
  });

  test("a dual-stack listener sees ::ffff:127.0.0.1 and counts it as 127.0.0.1", async () => {
    let h: Harness;
    try {
      h = startHarness(get().db, { hostname: "::", trustProxy: ["127.0.0.1"] });
    } catch {
      return; // no IPv6 here
    }
    try {
      await (await h.get(V2)).arrayBuffer();
      // Trusted as 127.0.0.1 even though the socket reports the mapped form.
      await (await h.get(V2, { "X-Forwarded-For": "198.51.100.77" })).arrayBuffer();
      await h.access.audit.flush();
      const rows = await readAudit(get().db);
      expect(rows.map((r) => r.client_ip)).toEqual(["127.0.0.1", "198.51.100.77"]);
    } finally {
      await h.stop();
    }
  });

  test("keys: the three places, per-key limit, same key twice, conflicting keys, revoked, malformed, 10 KB", async () => {
    const { db } = get();
    const h = startHarness(db, { anonymousLimit: 1 });
    const key = await createKey(db, { name: "client", rateLimit: 7 });
    const other = await createKey(db, { name: "other" });
    try {
      expect((await h.get(V1)).status).toBe(200);
      expect((await h.get(V1)).status).toBe(429); // anonymous budget of this IP is spent
      const places: [string, Record<string, string>][] = [
        [V1, { "X-API-Key": key.key }],
        [V1, { Authorization: `Bearer ${key.key}` }],
        [`${V1}&api_key=${key.key}`, {}],
        [`${V2}&api_key=${key.key}`, { "X-API-Key": key.key, Authorization: `bearer ${key.key}` }],
      ];
      let remaining = 7;
      for (const [path, headers] of places) {
        const r = await h.get(path, headers);
        expect(r.status).toBe(200);
        expect(r.headers.get("X-RateLimit-Limit")).toBe("7");
        expect(r.headers.get("X-RateLimit-Remaining")).toBe(String(--remaining));
        expect(r.headers.get("RateLimit-Policy")).toBe('"per-key";q=7;w=3600');
        await r.arrayBuffer();
      }
      // Counted per key, not per IP: the other key has its own budget.
      const o = await h.get(V1, { "X-API-Key": other.key });
      expect(o.headers.get("X-RateLimit-Remaining")).toBe("4999");

      const conflict = await h.get(`${V1}&api_key=${other.key}`, { "X-API-Key": key.key });
      expect(conflict.status).toBe(400);
      const conflictText = await conflict.text();
      expect(JSON.parse(conflictText).error.code).toBe("INVALID_PARAMETER");
      expect(conflictText).not.toContain(key.key);
      expect(conflictText).not.toContain(other.key);
      expect((await h.get(V1, { "X-API-Key": `${key.key}, ${other.key}` })).status).toBe(400);

      const bad = async (path: string, headers: Record<string, string> = {}) => {
        const r = await h.get(path, headers);
        const text = await r.text();
        expect(r.status).toBe(401);
        expect(JSON.parse(text).error.code).toBe("INVALID_API_KEY");
        expect(r.headers.get("WWW-Authenticate")).toStartWith("Bearer");
        return { text };
      };
      const unknown = "urk_000000000000000000000000000000000000";
      await bad(V1, { "X-API-Key": unknown });
      await bad(V1, { "X-API-Key": `${key.key.slice(0, -1)}${key.key.endsWith("a") ? "b" : "a"}` });
      await bad(`${V1}&api_key=`); // an empty key is still a key: never silently anonymous
      await bad(V1, { Authorization: "Bearer" });
      const huge = `urk_${"A".repeat(10_236)}`;
      for (const [path, headers] of [
        [V1, { "X-API-Key": huge }],
        [V1, { Authorization: `Bearer ${huge}` }],
        [`${V1}&api_key=${huge}`, {}],
      ] as [string, Record<string, string>][]) {
        const { text } = await bad(path, headers);
        expect(text).not.toContain("AAAAAAAAAA");
        expect(text.length).toBeLessThan(1000);
      }

      await revokeKey(db, key.id);
      const revoked = await bad(V2, { "X-API-Key": key.key });
      expect(JSON.parse(revoked.text).api_version).toBe("2.0");
      expect(revoked.text).not.toContain(key.key);

      // Per-key limit reached → 429 for the key, with its headers.
      const small = await createKey(db, { name: "small", rateLimit: 1 });
      expect((await h.get(V1, { "X-API-Key": small.key })).status).toBe(200);
      const over = await h.get(V1, { "X-API-Key": small.key });
      expect(over.status).toBe(429);
      expect(over.headers.get("Retry-After")).toBe("3600");
      expect(over.headers.get("X-RateLimit-Limit")).toBe("1");
    } finally {
      await h.stop();
    }
  });

  test("HMAC: every kind of bad signature is rejected, a good one accepted once", async () => {
    const { db } = get();
    const h = startHarness(db);
    const key = await createKey(db, { name: "signer", requireSignature: true });
    const secret = key.signing_secret ?? "";
    const nowS = () => Math.floor(h.time.now / 1000);
    const call = async (path: string, ts: number | null, signature: string | null) => {
      const headers: Record<string, string> = { "X-API-Key": key.key };
      if (ts !== null) headers["X-Timestamp"] = String(ts);
      if (signature !== null) headers["X-Signature"] = signature;
      const r = await h.get(path, headers);
      const text = await r.text();
      return { status: r.status, code: r.status === 200 ? "OK" : JSON.parse(text).error.code, text, r };
    };
    const path = "/api/v2/universities?limit=2&page=1";
    try {
      h.time.now = T0 + 10_000;
      const good = signRequest(secret, nowS(), "GET", path);
      // A missing header (either one, or both).
      expect((await call(path, null, null)).code).toBe("INVALID_SIGNATURE");
      expect((await call(path, nowS(), null)).code).toBe("INVALID_SIGNATURE");
      expect((await call(path, null, good)).code).toBe("INVALID_SIGNATURE");
      // A flipped byte.
      const flipped = good.slice(0, -1) + (good.endsWith("0") ? "1" : "0");
      expect((await call(path, nowS(), flipped)).code).toBe("INVALID_SIGNATURE");
      // Signed over another path, another query, another method.
      expect(
        (await call(path, nowS(), signRequest(secret, nowS(), "GET", "/api/v2/rankings?limit=2&page=1")))
          .code,
      ).toBe("INVALID_SIGNATURE");
      expect(
        (await call(path, nowS(), signRequest(secret, nowS(), "GET", "/api/v2/universities?limit=3&page=1")))
          .code,
      ).toBe("INVALID_SIGNATURE");
      expect((await call(path, nowS(), signRequest(secret, nowS(), "POST", path))).code).toBe(
        "INVALID_SIGNATURE",
      );
      // Signed with another secret, and a timestamp that does not match the one signed.
      expect((await call(path, nowS(), signRequest("urs_other", nowS(), "GET", path))).code).toBe(
        "INVALID_SIGNATURE",
      );
      expect((await call(path, nowS() + 1, good)).code).toBe("INVALID_SIGNATURE");
      // Stale and future timestamps beyond 300 s (each correctly signed).
      const stale = nowS() - 301;
      expect((await call(path, stale, signRequest(secret, stale, "GET", path))).code).toBe(
        "INVALID_SIGNATURE",
      );
      const future = nowS() + 301;
      expect((await call(path, future, signRequest(secret, future, "GET", path))).code).toBe(
        "INVALID_SIGNATURE",
      );
      // Malformed headers.
      expect((await call(path, nowS(), good.replace("sha256=", "sha1="))).code).toBe("INVALID_SIGNATURE");
      // The good one: accepted once, then a replay.
      const ok = await call(path, nowS(), good);
      expect(ok.status).toBe(200);
      expect(ok.r.headers.get("X-RateLimit-Limit")).toBe("5000");
      const replay = await call(path, nowS(), good);
      expect(replay.code).toBe("INVALID_SIGNATURE");
      expect(replay.status).toBe(401);
      expect(replay.r.headers.get("WWW-Authenticate")).toContain("invalid");
      expect(replay.text).not.toContain(key.key);
      expect(replay.text).not.toContain(secret);
      // Edges of the skew are accepted (300 s either way), and each new signature once.
      const early = nowS() - 300;
      expect((await call(path, early, signRequest(secret, early, "GET", path))).status).toBe(200);
      const late = nowS() + 300;
      expect((await call(path, late, signRequest(secret, late, "GET", path))).status).toBe(200);
      // Uppercase hex is the same signature (and so a replay).
      expect(
        (
          await call(
            path,
            late,
            signRequest(secret, late, "GET", path).toUpperCase().replace("SHA256", "sha256"),
          )
        ).code,
      ).toBe("INVALID_SIGNATURE");
      // v1 with the same key needs a signature too; the signed path includes an api_key query parameter as sent.
      const v1 = `/api/v1/stats?x=1`;
      expect((await call(v1, null, null)).code).toBe("INVALID_SIGNATURE");
      expect((await call(v1, nowS(), signRequest(secret, nowS(), "GET", v1))).status).toBe(200);
      // Failed signatures consume nothing: the key's budget counts only the 4 admitted requests.
      const last = await call(v1, nowS(), signRequest(secret, nowS(), "GET", `${v1}`));
      expect(last.code).toBe("INVALID_SIGNATURE"); // replay of the one above
      const after = nowS() + 1;
      h.time.now += 1000;
      const fresh = await call(v1, after, signRequest(secret, after, "GET", v1));
      expect(fresh.r.headers.get("X-RateLimit-Remaining")).toBe(String(5000 - 5));
    } finally {
      await h.stop();
    }
  });

  test("audit rows for v2 and keyed requests, key redacted; anonymous v1 is not audited", async () => {
    const { db } = get();
    const h = startHarness(db);
    const key = await createKey(db, { name: "audited" });
    try {
      h.time.now = T0 + 5_000;
      await (await h.get(`${V1}&api_key=${key.key}`, { "X-Request-Id": "req-keyed-v1" })).arrayBuffer();
      await (await h.get(V2, { "X-Request-Id": "req-anon-v2" })).arrayBuffer();
      await (await h.get(V1, { "X-Request-Id": "req-anon-v1" })).arrayBuffer();
      await (await h.get("/api/v2/universities/999999", { "X-API-Key": key.key })).arrayBuffer();
      await (
        await h.get(`/api/v1/stats?API_KEY=x&api%5Fkey=${"urk_0".repeat(2)}`, { "X-Request-Id": "bad" })
      ).arrayBuffer();
      await h.access.audit.flush();
      const rows = await readAudit(db);
      expect(rows.map((r) => r.request_id)).toEqual([
        "req-keyed-v1",
        "req-anon-v2",
        expect.any(String),
        "bad",
      ]);
      const [keyed, anon, notFound, invalid] = rows;
      expect(keyed).toMatchObject({
        time: "2026-03-01T12:00:05+00:00",
        key_id: key.id,
        client_ip: "127.0.0.1",
        method: "GET",
        path: "/api/v1/universities?limit=1&api_key=REDACTED",
        status: 200,
      });
      expect(keyed?.duration_ms).toBeGreaterThanOrEqual(0);
      expect(anon).toMatchObject({ key_id: null, path: V2, status: 200 });
      expect(notFound).toMatchObject({ key_id: key.id, status: 404 });
      expect(invalid).toMatchObject({
        key_id: null,
        status: 401,
        path: "/api/v1/stats?API_KEY=REDACTED&api%5Fkey=REDACTED",
      });
      expect(JSON.stringify(rows)).not.toContain(key.key);
    } finally {
      await h.stop();
    }
  });
});
